import type { AgentsDb } from '../schema';

/** The events table: what chat, lead capture and handoff recorded, waiting to be fanned out to webhooks. */

/** Record an event in the caller's transaction (lead.captured also as its deprecated alias leads.submit). */
export async function insertEvent(db: AgentsDb, ws: string, agentId: string | null, event: string, data: Record<string, unknown>, now: number): Promise<void> {
  const row = (name: string) => ({ workspace_id: ws, agent_id: agentId, event: name, payload: JSON.stringify({ event: name, created_at: new Date(now).toISOString(), data }), created_at: now });
  await db.insertInto('events').values(event === 'lead.captured' ? [row(event), row('leads.submit')] : [row(event)]).execute();
}

export async function undeliveredEvents(db: AgentsDb, limit: number) {
  return db.selectFrom('events').select(['id', 'workspace_id', 'agent_id', 'event', 'payload']).where('delivered', '=', 0).orderBy('id').limit(limit).execute();
}

/** Take an event for fan-out: true for exactly one caller (any process), false when another took it first. */
export async function claimEvent(db: AgentsDb, id: number): Promise<boolean> {
  const r = await db.updateTable('events').set({ delivered: 1 }).where('id', '=', id).where('delivered', '=', 0).returning('id').executeTakeFirst();
  return r !== undefined;
}
