import type { Insertable, Updateable } from 'kysely';
import { countAll } from '../sql';
import type { AgentsDb, LeadsTable } from '../schema';
import { contains, pageOf, type PageOptions } from './table';

const COLUMNS = ['id', 'agent_id', 'conversation_id', 'name', 'email', 'phone', 'company', 'status', 'score', 'source', 'notes', 'created_at', 'updated_at'] as const;
export const LEAD_SORTS = ['created_at', 'updated_at', 'name', 'email', 'score', 'status'] as const;
const SEARCH_IN = ['name', 'email', 'phone', 'company', 'notes'] as const;

export async function leadById(db: AgentsDb, ws: string, id: string) {
  return db.selectFrom('leads').select(COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function insertLead(db: AgentsDb, row: Insertable<LeadsTable>): Promise<void> {
  await db.insertInto('leads').values(row).execute();
}

/** False when no such lead in the workspace. */
export async function updateLead(db: AgentsDb, ws: string, id: string, set: Updateable<LeadsTable>): Promise<boolean> {
  const r = await db.updateTable('leads').set(set).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteLead(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('leads').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function pageLeads(db: AgentsDb, ws: string, q: PageOptions<(typeof LEAD_SORTS)[number]> & { status?: string }) {
  let base = db.selectFrom('leads').where('workspace_id', '=', ws);
  if (q.agentId) base = base.where('agent_id', '=', q.agentId);
  if (q.status) base = base.where('status', '=', q.status);
  const search = q.search;
  if (search) base = base.where((eb) => eb.or(SEARCH_IN.map((c) => contains(db, c, search))));
  const { n } = await base.select(countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await base.select(COLUMNS).orderBy(q.sort, q.dir).orderBy('id').limit(q.limit).offset((q.page - 1) * q.limit).execute();
  return pageOf(rows, Number(n), q);
}

/** The newest `limit` leads (CSV export). */
export async function listLeads(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  let q = db.selectFrom('leads').select(COLUMNS).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

/** Leads per status. */
export async function leadCountsByStatus(db: AgentsDb, ws: string, agentId: string | undefined) {
  let q = db.selectFrom('leads').select(['status', countAll().as('n')]).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  const rows = await q.groupBy('status').execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

/** Leads of the workspace; with `agentId`, that agent's and the workspace-wide ones; with `status`, only those. */
export async function countLeads(db: AgentsDb, ws: string, agentId?: string | null, status?: string): Promise<number> {
  let q = db.selectFrom('leads').select(countAll().as('n')).where('workspace_id', '=', ws);
  if (agentId) q = q.where((eb) => eb.or([eb('agent_id', '=', agentId), eb('agent_id', 'is', null)]));
  if (status) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
