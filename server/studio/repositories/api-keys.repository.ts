import type { StudioDb } from '../db';

/** Workspace API keys: only the hash of the secret is kept. */

export async function keyByPrefix(db: StudioDb, prefix: string) {
  return db
    .selectFrom('api_keys').select(['id', 'workspace_id', 'prefix', 'hash', 'created_by', 'revoked_at', 'last_used_at'])
    .where('prefix', '=', prefix)
    .executeTakeFirst();
}

/** Is the key's creator or its workspace's owner suspended? */
export async function keyBlocked(db: StudioDb, createdBy: number | null, ws: number): Promise<boolean> {
  const owner = db.selectFrom('workspaces').select('owner_id').where('id', '=', ws);
  const r = await db
    .selectFrom('users').select('id')
    .where('suspended', '=', 1)
    .where((eb) => eb.or([eb('id', '=', createdBy ?? -1), eb('id', '=', owner)]))
    .limit(1)
    .executeTakeFirst();
  return !!r;
}

export async function touchKey(db: StudioDb, ws: number, id: string, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).where('workspace_id', '=', ws).execute();
}

export async function listKeys(db: StudioDb, ws: number) {
  return db
    .selectFrom('api_keys').select(['id', 'prefix', 'name', 'created_at', 'last_used_at', 'revoked_at'])
    .where('workspace_id', '=', ws).orderBy('created_at').orderBy('id')
    .execute();
}

export async function insertKey(db: StudioDb, key: { id: string; workspace_id: number; prefix: string; name: string; hash: string; created_by: number | null; created_at: string }) {
  await db.insertInto('api_keys').values(key).execute();
}

/** Revoked once (a second revoke keeps the first time); false when the workspace has no such key. */
export async function revokeKey(db: StudioDb, ws: number, id: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('api_keys').set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', id).where('workspace_id', '=', ws)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
