import type { AgentsContext } from '../context';
import { openSecret, sealSecret } from '../channels/secret-box';
import { newId } from '../ids';
import { DELIVERY_HEADER, EVENT_HEADER, postGuarded, SIGNATURE_HEADER, signatureHeader, type OutboundOptions } from './sender';

/** Seconds to wait before each retry after a failed attempt (attempt 1 is immediate). */
export const RETRY_DELAYS_S = [10, 60, 300, 1800, 7200] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
/** A claimed delivery is not picked again for this long (a crash mid-send retries it after the lease). */
const LEASE_MS = 120_000;

export interface DeliveryRow {
  seq: number;
  id: string;
  delivery_id: string;
  workspace_id: string;
  webhook_id: string;
  agent_id: string | null;
  event: string;
  url: string;
  payload: string | null;
  state: 'pending' | 'delivered' | 'failed' | 'cancelled';
  status: number | null;
  ok: number;
  attempts: number;
  error: string | null;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

interface WebhookRow {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  url: string;
  events: string;
}

export interface DispatcherOptions {
  outbound: OutboundOptions;
  now: () => number;
  /** Poll the queue on a timer (production); tests drive `tick()` themselves. */
  autoStart: boolean;
  intervalMs?: number;
}

/** The workspace's signing secret, created on first use; stored sealed with the platform key (AES-256-GCM). */
export function workspaceSecret(ctx: AgentsContext, ws: string): string {
  const row = ctx.legacyDb.prepare('SELECT secret FROM webhook_secrets WHERE workspace_id = ?').get(ws) as { secret: string } | undefined;
  if (row) return openSecret(ctx.config, row.secret);
  const secret = `whsec_${newId('x', 32).slice(2)}`;
  ctx.legacyDb.prepare('INSERT INTO webhook_secrets (workspace_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(ws, sealSecret(ctx.config, secret), Date.now());
  return openSecret(ctx.config, (ctx.legacyDb.prepare('SELECT secret FROM webhook_secrets WHERE workspace_id = ?').get(ws) as { secret: string }).secret);
}

/**
 * The durable delivery queue: events recorded by chat, lead capture and handoff are fanned out to the
 * subscribed endpoints as rows of webhook_deliveries; due rows are sent, failures retried with back-off.
 * Everything lives in the database, so a restart resumes where the previous process stopped.
 */
/** An event as recorded, handed to in-process listeners after fan-out (CRM sync). */
export interface RecordedEvent {
  workspace_id: string;
  agent_id: string | null;
  event: string;
  payload: string;
}

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

  /** Turn recorded events into deliveries for every endpoint subscribed to them. */
  fanOut(): number {
    const db = this.ctx.legacyDb;
    const events = db.prepare('SELECT id, workspace_id, agent_id, event, payload, created_at FROM events WHERE delivered = 0 ORDER BY id LIMIT 500').all() as {
      id: number; workspace_id: string; agent_id: string | null; event: string; payload: string; created_at: number;
    }[];
    if (events.length === 0) return 0;
    const hooks = db.prepare('SELECT id, workspace_id, agent_id, url, events FROM webhooks WHERE workspace_id = ?');
    const done = db.prepare('UPDATE events SET delivered = 1 WHERE id = ?');
    let n = 0;
    db.transaction(() => {
      for (const e of events) {
        for (const h of hooks.all(e.workspace_id) as WebhookRow[]) {
          if (h.agent_id && h.agent_id !== e.agent_id) continue;
          if (!(JSON.parse(h.events) as string[]).includes(e.event)) continue;
          this.enqueue(h, e.event, e.payload);
          n++;
        }
        done.run(e.id);
      }
    })();
    for (const e of events) {
      for (const fn of this.listeners) {
        const p = fn(e).catch((err: unknown) => this.ctx.log(`event listener: ${String(err)}`)).finally(() => this.ctx.background.delete(p));
        this.ctx.background.add(p);
      }
    }
    return n;
  }

  enqueue(h: WebhookRow | { id: string; workspace_id: string; agent_id: string | null; url: string }, event: string, payload: string): DeliveryRow {
    const now = this.opts.now();
    const id = newId('dlv');
    this.ctx.legacyDb
      .prepare(`INSERT INTO webhook_deliveries (id, delivery_id, workspace_id, webhook_id, agent_id, event, url, payload, state, next_attempt_at, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`)
      .run(id, newId('evt', 20), h.workspace_id, h.id, h.agent_id, event, h.url, payload, now, now, now);
    return this.get(id);
  }

  get(id: string): DeliveryRow {
    return this.ctx.legacyDb.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow;
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
    this.fanOut();
    const due = this.ctx.legacyDb
      .prepare("SELECT * FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT 50")
      .all(this.opts.now()) as DeliveryRow[];
    for (const d of due) await this.attempt(d);
    return due.length;
  }

  /** Send one delivery now and record the outcome (retry scheduled, delivered, or failed for good). */
  async attempt(d: DeliveryRow): Promise<DeliveryRow> {
    const db = this.ctx.legacyDb;
    const claimedAt = this.opts.now();
    const claim = db.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND state = 'pending' AND next_attempt_at = ?").run(claimedAt + LEASE_MS, d.id, d.next_attempt_at);
    if (claim.changes === 0 || d.payload === null) return this.get(d.id);
    const unix = Math.floor(claimedAt / 1000);
    const secret = workspaceSecret(this.ctx, d.workspace_id);
    const result = await postGuarded(d.url, d.payload, {
      [SIGNATURE_HEADER]: signatureHeader(secret, unix, d.payload),
      [EVENT_HEADER]: d.event,
      [DELIVERY_HEADER]: d.delivery_id,
    }, this.opts.outbound);
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const attempts = d.attempts + 1;
    const now = this.opts.now();
    const retry = !ok && attempts < MAX_ATTEMPTS;
    const state = ok ? 'delivered' : retry ? 'pending' : 'failed';
    db.prepare(`UPDATE webhook_deliveries SET state = ?, status = ?, ok = ?, attempts = ?, error = ?, next_attempt_at = ?,
                payload = CASE WHEN ? THEN payload ELSE NULL END, updated_at = ? WHERE id = ? AND state = 'pending'`)
      .run(state, result.status, ok ? 1 : 0, attempts, result.error, retry ? now + RETRY_DELAYS_S[attempts - 1] * 1000 : null, retry ? 1 : 0, now, d.id);
    return this.get(d.id);
  }

  /** Pending deliveries of a removed endpoint are cancelled (their records stay). */
  cancelFor(webhookId: string): void {
    this.ctx.legacyDb
      .prepare("UPDATE webhook_deliveries SET state = 'cancelled', payload = NULL, next_attempt_at = NULL, error = 'webhook deleted', updated_at = ? WHERE webhook_id = ? AND state = 'pending'")
      .run(this.opts.now(), webhookId);
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
