import type { StudioDb } from '../db';

/** Workspace API keys: only the hash of the secret is kept. */

/**
 * The key with its prefix, and whether its creator or its workspace's owner is suspended (`blocked`), in one
 * statement: every request with an API key runs it.
 */
export async function keyByPrefix(db: StudioDb, prefix: string) {
  const r = await db
    .selectFrom('api_keys as k')
    .select(['k.id', 'k.workspace_id', 'k.prefix', 'k.hash', 'k.created_by', 'k.revoked_at', 'k.last_used_at'])
    .select((eb) =>
      eb.exists(
        eb.selectFrom('users as u').select('u.id')
          .where('u.suspended', '=', 1)
          .where((w) => w.or([w('u.id', '=', w.ref('k.created_by')), w('u.id', '=', w.selectFrom('workspaces as o').select('o.owner_id').whereRef('o.id', '=', 'k.workspace_id'))])),
      ).as('blocked'),
    )
    .where('k.prefix', '=', prefix)
    .executeTakeFirst();
  return r && { ...r, blocked: Boolean(Number(r.blocked)) };
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
