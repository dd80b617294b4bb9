import type { AgentsContext } from './context';
import { stmt } from './db';
import type { EventName } from '../../shared/api/contracts/agents-values';
export { EventName };


/**
 * Hands an event to the webhook dispatcher: recorded in the events table in the caller's
 * transaction; the dispatcher delivers pending rows (lead.captured also as its deprecated alias).
 */
export function recordEvent(ctx: AgentsContext, ws: string, agentId: string | null, event: EventName, payload: Record<string, unknown>): void {
  const ins = stmt(ctx.legacyDb, 'INSERT INTO events (workspace_id, agent_id, event, payload, created_at) VALUES (?, ?, ?, ?, ?)');
  const now = Date.now();
  const body = JSON.stringify({ event, created_at: new Date(now).toISOString(), data: payload });
  ins.run(ws, agentId, event, body, now);
  if (event === 'lead.captured') ins.run(ws, agentId, 'leads.submit', JSON.stringify({ event: 'leads.submit', created_at: new Date(now).toISOString(), data: payload }), now);
}
