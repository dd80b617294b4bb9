import type { AgentsContext } from '../context';
import { openSecret, sealSecret } from '../channels/secret-box';
import { newId } from '../ids';
import { DELIVERY_HEADER, EVENT_HEADER, postGuarded, SIGNATURE_HEADER, signatureHeader, type OutboundOptions } from './sender';
import { cancelDeliveriesOf, claimDelivery, deliveryBySeq, dueDeliveries, insertDeliveries, insertDelivery, recordAttempt, type DeliveryRow } from './deliveries.repository';
import { claimEvent, undeliveredEvents } from './events.repository';
import { insertSecretIfAbsent, listWebhooks, sealedSecretOf, type WebhookRow } from './webhooks.repository';

/** Seconds to wait before each retry after a failed attempt (attempt 1 is immediate). */
export const RETRY_DELAYS_S = [10, 60, 300, 1800, 7200] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
/** A claimed delivery is not picked again for this long (a crash mid-send retries it after the lease). */
const LEASE_MS = 120_000;
/** Events fanned out and deliveries attempted per pass. */
const EVENTS_PER_PASS = 500;
const DELIVERIES_PER_PASS = 50;

export interface DispatcherOptions {
  outbound: OutboundOptions;
  now: () => number;
  /** Poll the queue on a timer (production); tests drive `tick()` themselves. */
  autoStart: boolean;
  intervalMs?: number;
}

/** The workspace's signing secret, created on first use; stored sealed with the platform key (AES-256-GCM). */
export async function workspaceSecret(ctx: AgentsContext, ws: string): Promise<string> {
  const stored = await sealedSecretOf(ctx.db, ws);
  if (stored !== null) return openSecret(ctx.config, stored);
  await insertSecretIfAbsent(ctx.db, ws, sealSecret(ctx.config, `whsec_${newId('x', 32).slice(2)}`), Date.now());
  // Two first uses at once: both read back the one that was stored.
  const now = await sealedSecretOf(ctx.db, ws);
  if (now === null) throw new Error('webhook secret not stored');
  return openSecret(ctx.config, now);
}

/** An event as recorded, handed to in-process listeners after fan-out (CRM sync). */
export interface RecordedEvent {
  workspace_id: string;
  agent_id: string | null;
  event: string;
  payload: string;
}

/**
 * The durable delivery queue: events recorded by chat, lead capture and handoff are fanned out to the
 * subscribed endpoints as rows of webhook_deliveries; due rows are sent, failures retried with back-off.
 * Everything lives in the database, so a restart resumes where the previous process stopped, and several
 * processes on one database share the queue: each event is fanned out and each attempt made by one of them.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners: ((e: RecordedEvent) => Promise<void>)[] = [];
  private running: Promise<number> | null = null;

  constructor(
    private readonly ctx: AgentsContext,
    private readonly opts: DispatcherOptions,
  ) {}

  start(): void {
    if (this.timer || !this.opts.autoStart) return;
    this.timer = setInterval(() => void this.tick().catch((e: unknown) => this.ctx.log(`webhooks: ${String(e)}`)), this.opts.intervalMs ?? 2000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  /** Also hand every recorded event to `fn` (best effort, in the background; failures are logged by the listener). */
  onEvent(fn: (e: RecordedEvent) => Promise<void>): void {
    this.listeners.push(fn);
  }

  /**
   * Turn recorded events into deliveries for every endpoint subscribed to them. Each event is claimed and its
   * deliveries written in one transaction, so an event is fanned out once even when several processes poll.
   */
  async fanOut(): Promise<number> {
    const events = await undeliveredEvents(this.ctx.db, EVENTS_PER_PASS);
    if (events.length === 0) return 0;
    const hooksOf = new Map<string, WebhookRow[]>();
    let n = 0;
    for (const e of events) {
      let hooks = hooksOf.get(e.workspace_id);
      if (!hooks) hooksOf.set(e.workspace_id, (hooks = await listWebhooks(this.ctx.db, e.workspace_id, null)));
      const targets = hooks.filter((h) => (!h.agent_id || h.agent_id === e.agent_id) && (JSON.parse(h.events) as string[]).includes(e.event));
      const now = this.opts.now();
      const mine = await this.ctx.db.transaction().execute(async (tx) => {
        if (!(await claimEvent(tx, e.id))) return false;
        await insertDeliveries(tx, targets.map((h) => this.deliveryOf(h, e.event, e.payload, now)));
        return true;
      });
      if (!mine) continue;
      n += targets.length;
      for (const fn of this.listeners) {
        const p = fn(e).catch((err: unknown) => this.ctx.log(`event listener: ${String(err)}`)).finally(() => this.ctx.background.delete(p));
        this.ctx.background.add(p);
      }
    }
    return n;
  }

  private deliveryOf(h: Pick<WebhookRow, 'id' | 'workspace_id' | 'agent_id' | 'url'>, event: string, payload: string, now: number) {
    return {
      id: newId('dlv'), delivery_id: newId('evt', 20), workspace_id: h.workspace_id, webhook_id: h.id, agent_id: h.agent_id,
      event, url: h.url, payload, state: 'pending', next_attempt_at: now, created_at: now, updated_at: now,
    };
  }

  /** Queue one delivery to an endpoint now (the test event). */
  async enqueue(h: Pick<WebhookRow, 'id' | 'workspace_id' | 'agent_id' | 'url'>, event: string, payload: string): Promise<DeliveryRow> {
    return insertDelivery(this.ctx.db, this.deliveryOf(h, event, payload, this.opts.now()));
  }

  /** One pass: fan out new events, then attempt every due delivery once. Answers how many were attempted. */
  tick(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<number> {
    await this.fanOut();
    const due = await dueDeliveries(this.ctx.db, this.opts.now(), DELIVERIES_PER_PASS);
    let attempted = 0;
    for (const seq of due) if (await this.attemptSeq(seq)) attempted++;
    return attempted;
  }

  /** Send one delivery now and record the outcome (retry scheduled, delivered, or failed for good). */
  async attempt(d: DeliveryRow): Promise<DeliveryRow> {
    await this.attemptSeq(d.seq);
    const after = await deliveryBySeq(this.ctx.db, d.seq);
    if (!after) throw new Error(`delivery ${d.id} vanished`);
    return after;
  }

  /** Claim, send and record one delivery; false when it was not due or another dispatcher holds it. */
  private async attemptSeq(seq: number): Promise<boolean> {
    const claimedAt = this.opts.now();
    const leaseUntil = claimedAt + LEASE_MS;
    const d = await claimDelivery(this.ctx.db, seq, claimedAt, leaseUntil);
    if (!d || d.payload === null) return false;
    const unix = Math.floor(claimedAt / 1000);
    const secret = await workspaceSecret(this.ctx, d.workspace_id);
    const result = await postGuarded(d.url, d.payload, {
      [SIGNATURE_HEADER]: signatureHeader(secret, unix, d.payload),
      [EVENT_HEADER]: d.event,
      [DELIVERY_HEADER]: d.delivery_id,
    }, this.opts.outbound);
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const attempts = d.attempts + 1;
    const now = this.opts.now();
    const retry = !ok && attempts < MAX_ATTEMPTS;
    await recordAttempt(this.ctx.db, seq, leaseUntil, {
      state: ok ? 'delivered' : retry ? 'pending' : 'failed', status: result.status, ok: ok ? 1 : 0, attempts, error: result.error,
      nextAttemptAt: retry ? now + RETRY_DELAYS_S[attempts - 1] * 1000 : null, keepPayload: retry, now,
    });
    return true;
  }

  /** Pending deliveries of a removed endpoint are cancelled (their records stay). */
  async cancelFor(ws: string, webhookId: string): Promise<void> {
    await cancelDeliveriesOf(this.ctx.db, ws, webhookId, this.opts.now());
  }
}

const dispatchers = new WeakMap<AgentsContext, WebhookDispatcher>();

export function createWebhookDispatcher(ctx: AgentsContext, opts: DispatcherOptions): WebhookDispatcher {
  const d = new WebhookDispatcher(ctx, opts);
  dispatchers.set(ctx, d);
  return d;
}

/** The dispatcher of a running app (tests drive its queue). */
export function webhookDispatcher(ctx: AgentsContext): WebhookDispatcher {
  const d = dispatchers.get(ctx);
  if (!d) throw new Error('no webhook dispatcher');
  return d;
}
