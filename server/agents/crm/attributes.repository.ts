import type { Insertable } from 'kysely';
import type { AgentsDb, AttributesTable } from '../schema';

const COLUMNS = ['id', 'agent_id', 'name', 'type', 'label', 'description', 'created_at'] as const;

export async function attributeById(db: AgentsDb, ws: string, id: string) {
  return db.selectFrom('attributes').select(COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

/** Oldest first, at most `limit` (the newest ones). */
export async function listAttributes(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  let q = db.selectFrom('attributes').select(COLUMNS).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  const rows = await q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.reverse();
}

/** An attribute of this name for this agent (or workspace-wide when agentId is null). */
export async function attributeNamed(db: AgentsDb, ws: string, agentId: string | null, name: string) {
  return db
    .selectFrom('attributes').select('id')
    .where('workspace_id', '=', ws).where('name', '=', name)
    .where((eb) => (agentId === null ? eb('agent_id', 'is', null) : eb('agent_id', '=', agentId)))
    .executeTakeFirst();
}

export async function insertAttribute(db: AgentsDb, row: Insertable<AttributesTable>): Promise<void> {
  await db.insertInto('attributes').values(row).execute();
}

export async function deleteAttribute(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('attributes').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
