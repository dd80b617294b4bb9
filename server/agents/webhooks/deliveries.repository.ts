import type { Insertable, Selectable } from 'kysely';
import type { AgentsDb, WebhookDeliveriesTable } from '../schema';

/** The durable delivery queue: one row per (event, endpoint), claimed by one dispatcher at a time. */

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

const DELIVERY = ['seq', 'id', 'delivery_id', 'workspace_id', 'webhook_id', 'agent_id', 'event', 'url', 'payload', 'state', 'status', 'ok', 'attempts', 'error', 'next_attempt_at', 'created_at', 'updated_at'] as const;

export async function insertDeliveries(db: AgentsDb, rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('webhook_deliveries').values(rows).execute();
}

export async function insertDelivery(db: AgentsDb, row: Insertable<WebhookDeliveriesTable>): Promise<DeliveryRow> {
  return db.insertInto('webhook_deliveries').values(row).returning(DELIVERY).executeTakeFirstOrThrow();
}

export async function deliveryBySeq(db: AgentsDb, seq: number): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').select(DELIVERY).where('seq', '=', seq).executeTakeFirst();
}

/** Pending deliveries due by `now`, oldest first (candidates: each is claimed before it is sent). */
export async function dueDeliveries(db: AgentsDb, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('webhook_deliveries').select('seq')
    .where('state', '=', 'pending').where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at').orderBy('seq').limit(limit).execute();
  return rows.map((r) => r.seq);
}

/**
 * Claim a due delivery for one attempt: its next attempt moves to `leaseUntil`, so no other dispatcher (any
 * process) takes it until then. One conditional UPDATE: exactly one of several concurrent claimers gets the row.
 */
export async function claimDelivery(db: AgentsDb, seq: number, now: number, leaseUntil: number): Promise<DeliveryRow | undefined> {
  return db
    .updateTable('webhook_deliveries').set({ next_attempt_at: leaseUntil })
    .where('seq', '=', seq).where('state', '=', 'pending').where('next_attempt_at', '<=', now)
    .returning(DELIVERY).executeTakeFirst();
}

/** Record an attempt's outcome, only while the claim is still ours (its lease has not been taken over). */
export async function recordAttempt(
  db: AgentsDb, seq: number, leaseUntil: number,
  o: { state: string; status: number | null; ok: number; attempts: number; error: string | null; nextAttemptAt: number | null; keepPayload: boolean; now: number },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ state: o.state, status: o.status, ok: o.ok, attempts: o.attempts, error: o.error, next_attempt_at: o.nextAttemptAt, updated_at: o.now, ...(o.keepPayload ? {} : { payload: null }) })
    .where('seq', '=', seq).where('state', '=', 'pending').where('next_attempt_at', '=', leaseUntil)
    .execute();
}

/** Pending deliveries of a removed endpoint are cancelled (their records stay). */
export async function cancelDeliveriesOf(db: AgentsDb, ws: string, webhookId: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'cancelled', payload: null, next_attempt_at: null, error: 'webhook deleted', updated_at: now })
    .where('workspace_id', '=', ws).where('webhook_id', '=', webhookId).where('state', '=', 'pending')
    .execute();
}

/** The workspace's latest deliveries (of one agent when given), newest first. */
export async function listDeliveries(db: AgentsDb, ws: string, agentId: string | null, limit: number): Promise<DeliveryRow[]> {
  let q = db.selectFrom('webhook_deliveries').select(DELIVERY).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return q.orderBy('seq', 'desc').limit(limit).execute();
}
