import type { Insertable } from 'kysely';
import { dialectOf } from '../../core/db/database';
import type { AgentsDb, WorkspacesTable } from '../schema';

/** Workspaces. Every query names the workspace it is about. */

export async function workspaceById(db: AgentsDb, ws: string) {
  return db.selectFrom('workspaces').select(['id', 'name', 'owner_id', 'tier', 'credits', 'paused', 'created_at']).where('id', '=', ws).executeTakeFirst();
}

/**
 * Inside a transaction: the workspace's name and tier, its row locked on PostgreSQL until the transaction
 * ends, so counting its seats or keys and then adding one is exact across processes (SQLite transactions
 * hold the write lock from their start).
 */
export async function lockWorkspace(db: AgentsDb, ws: string) {
  return db
    .selectFrom('workspaces').select(['name', 'tier']).where('id', '=', ws)
    .$if(dialectOf(db) === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function insertWorkspace(db: AgentsDb, w: Insertable<WorkspacesTable>): Promise<void> {
  await db.insertInto('workspaces').values(w).execute();
}

export async function updateWorkspaceRow(db: AgentsDb, ws: string, patch: { name?: string; tier?: string }): Promise<void> {
  if (patch.name === undefined && patch.tier === undefined) return;
  await db.updateTable('workspaces').set(patch).where('id', '=', ws).execute();
}
