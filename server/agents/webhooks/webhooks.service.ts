import { badRequest, DomainError, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { selectAgent } from '../agents/agents.service';
import { listDeliveries, type DeliveryRow } from './deliveries.repository';
import { workspaceSecret, type WebhookDispatcher } from './dispatcher';
import { deleteWebhook, insertWebhookWithin, listWebhooks, webhookOf, type WebhookRow } from './webhooks.repository';

const MAX_WEBHOOKS = 20;
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

const present = (w: WebhookRow) => ({ id: w.id, agentId: w.agent_id, url: w.url, events: JSON.parse(w.events) as string[], created_at: iso(w.created_at) });

/** A delivery as written: never the payload body, never the secret. */
const presentDelivery = (d: DeliveryRow) => ({
  id: d.id,
  delivery_id: d.delivery_id,
  webhook_id: d.webhook_id,
  agentId: d.agent_id,
  event: d.event,
  url: d.url,
  status: d.status,
  ok: d.ok === 1,
  state: d.state,
  attempts: d.attempts,
  error: d.error,
  next_attempt_at: d.state === 'pending' ? iso(d.next_attempt_at) : null,
  created_at: iso(d.created_at),
});

async function find(ctx: AgentsContext, ws: string, id: string): Promise<WebhookRow> {
  const w = await webhookOf(ctx.db, ws, id);
  if (!w) throw notFound('webhook not found');
  return w;
}

export async function webhooksOf(ctx: AgentsContext, ws: string, agentId: string | null) {
  return (await listWebhooks(ctx.db, ws, agentId)).map(present);
}

export async function deliveriesOf(ctx: AgentsContext, ws: string, agentId: string | null, limit: number) {
  return (await listDeliveries(ctx.db, ws, agentId, limit)).map(presentDelivery);
}

/** Omitted agent: the workspace's first agent; before any agent exists the endpoint covers the workspace. */
async function defaultAgentId(ctx: AgentsContext, ws: string): Promise<string | null> {
  try {
    return (await selectAgent(ctx, ws, null)).id;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return null;
    throw err;
  }
}

/** Add an endpoint (url already checked public HTTPS); the workspace's signing secret exists afterwards. */
export async function createWebhook(ctx: AgentsContext, ws: string, w: { url: string; events: string[]; agentId: string | null }) {
  const agentId = w.agentId ?? (await defaultAgentId(ctx, ws));
  const row: WebhookRow = { id: newId('whk'), workspace_id: ws, agent_id: agentId, url: w.url, events: JSON.stringify([...new Set(w.events)]), created_at: Date.now() };
  if (!(await insertWebhookWithin(ctx.db, row, MAX_WEBHOOKS))) throw badRequest(`at most ${MAX_WEBHOOKS} webhooks per workspace`);
  await workspaceSecret(ctx, ws);
  return present(await find(ctx, ws, row.id));
}

/** Send a signed sample event to the endpoint now. */
export async function testWebhook(ctx: AgentsContext, dispatcher: WebhookDispatcher, ws: string, id: string) {
  const w = await find(ctx, ws, id);
  const body = JSON.stringify({ event: 'webhook.test', created_at: new Date().toISOString(), data: { webhookId: w.id, message: 'This is a test event.' } });
  const d = await dispatcher.attempt(await dispatcher.enqueue(w, 'webhook.test', body));
  return { ok: d.ok === 1, delivery: presentDelivery(d) };
}

/** Remove an endpoint; its pending deliveries are cancelled (their records stay). */
export async function removeWebhook(ctx: AgentsContext, dispatcher: WebhookDispatcher, ws: string, id: string): Promise<void> {
  if (!(await deleteWebhook(ctx.db, ws, id))) throw notFound('webhook not found');
  await dispatcher.cancelFor(ws, id);
}
