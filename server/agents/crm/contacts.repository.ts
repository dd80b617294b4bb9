import type { Insertable, Updateable } from 'kysely';
import { countAll } from '../sql';
import type { AgentsDb, ContactsTable } from '../schema';
import { contains, pageOf, type PageOptions } from './table';

const COLUMNS = ['id', 'agent_id', 'external_id', 'email', 'name', 'phone', 'created_at', 'updated_at'] as const;
export const CONTACT_SORTS = ['created_at', 'updated_at', 'name', 'email'] as const;
const SEARCH_IN = ['name', 'email', 'phone', 'external_id'] as const;

export async function contactById(db: AgentsDb, ws: string, id: string) {
  return db.selectFrom('contacts').select(COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function insertContact(db: AgentsDb, row: Insertable<ContactsTable>): Promise<void> {
  await db.insertInto('contacts').values(row).execute();
}

/** False when no such contact in the workspace. */
export async function updateContact(db: AgentsDb, ws: string, id: string, set: Updateable<ContactsTable>): Promise<boolean> {
  const r = await db.updateTable('contacts').set(set).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteContact(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('contacts').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function pageContacts(db: AgentsDb, ws: string, q: PageOptions<(typeof CONTACT_SORTS)[number]>) {
  let base = db.selectFrom('contacts').where('workspace_id', '=', ws);
  if (q.agentId) base = base.where('agent_id', '=', q.agentId);
  const search = q.search;
  if (search) base = base.where((eb) => eb.or(SEARCH_IN.map((c) => contains(db, c, search))));
  const { n } = await base.select(countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await base.select(COLUMNS).orderBy(q.sort, q.dir).orderBy('id').limit(q.limit).offset((q.page - 1) * q.limit).execute();
  return pageOf(rows, Number(n), q);
}

/** The newest `limit` contacts (CSV export). */
export async function listContacts(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  let q = db.selectFrom('contacts').select(COLUMNS).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export async function countContacts(db: AgentsDb, ws: string, agentId?: string | null): Promise<number> {
  let q = db.selectFrom('contacts').select(countAll().as('n')).where('workspace_id', '=', ws);
  if (agentId) q = q.where((eb) => eb.or([eb('agent_id', '=', agentId), eb('agent_id', 'is', null)]));
  return Number((await q.executeTakeFirstOrThrow()).n);
}
