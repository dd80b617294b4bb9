import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import * as repo from './leads.repository';
import type { PageOptions } from './table';
import { LEAD_STATUSES } from '../../../shared/api/contracts/agents-values';

export { LEAD_SORTS } from './leads.repository';
export interface LeadInput {
  name?: string;
  email?: string;
  phone?: string;
  company?: string;
  status?: string;
  score?: number;
  source?: string;
  notes?: string;
}

async function found(ctx: AgentsContext, ws: string, id: string) {
  const l = await repo.leadById(ctx.db, ws, id);
  if (!l) throw notFound('lead not found');
  return l;
}

export const pageLeads = (ctx: AgentsContext, ws: string, q: PageOptions<(typeof repo.LEAD_SORTS)[number]> & { status?: string }) => repo.pageLeads(ctx.db, ws, q);
export const exportLeads = (ctx: AgentsContext, ws: string, agentId: string | undefined, limit: number) => repo.listLeads(ctx.db, ws, agentId, limit);

/** How many leads, in total and per status (every status, 0 when none). */
export async function leadStats(ctx: AgentsContext, ws: string, agentId: string | undefined) {
  const rows = await repo.leadCountsByStatus(ctx.db, ws, agentId);
  const byStatus: Record<string, number> = Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0]));
  for (const r of rows) byStatus[r.status] = r.n;
  return { total: rows.reduce((a, r) => a + r.n, 0), byStatus };
}

export async function createLead(ctx: AgentsContext, ws: string, agentId: string | null, input: LeadInput) {
  const id = newId('ld');
  const now = Date.now();
  await repo.insertLead(ctx.db, { id, workspace_id: ws, agent_id: agentId, ...input, status: input.status ?? 'new', source: input.source ?? 'manual', created_at: now, updated_at: now });
  return found(ctx, ws, id);
}

export async function updateLead(ctx: AgentsContext, ws: string, id: string, input: LeadInput) {
  if (!(await repo.updateLead(ctx.db, ws, id, { ...input, updated_at: Date.now() }))) throw notFound('lead not found');
  return found(ctx, ws, id);
}

export async function removeLead(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  if (!(await repo.deleteLead(ctx.db, ws, id))) throw notFound('lead not found');
}
