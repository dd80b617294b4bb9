import type { Insertable } from 'kysely';
import type { AgentsDb, EventsTable } from './schema';
import type { EventName } from '../../shared/api/contracts/agents-values';
export { EventName };


/**
 * Hands an event to the webhook dispatcher: recorded in the events table on `db` (pass the caller's
 * transaction); the dispatcher delivers pending rows (lead.captured also as its deprecated alias).
 */
export async function recordEvent(db: AgentsDb, ws: string, agentId: string | null, event: EventName, payload: Record<string, unknown>): Promise<void> {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const rows: Insertable<EventsTable>[] = [{ workspace_id: ws, agent_id: agentId, event, payload: JSON.stringify({ event, created_at: at, data: payload }), created_at: now }];
  if (event === 'lead.captured') rows.push({ workspace_id: ws, agent_id: agentId, event: 'leads.submit', payload: JSON.stringify({ event: 'leads.submit', created_at: at, data: payload }), created_at: now });
  await db.insertInto('events').values(rows).execute();
}
