import type { Insertable } from 'kysely';
import { countAll } from '../sql';
import type { AgentsDb, ApiKeysTable } from '../schema';

/** A workspace's API keys (only the SHA-256 of a secret is stored). Every query names the workspace. */

export async function keysOf(db: AgentsDb, ws: string) {
  return db
    .selectFrom('api_keys').select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
    .where('workspace_id', '=', ws)
    .orderBy('created_at', 'desc').orderBy('id')
    .execute();
}

export async function countKeys(db: AgentsDb, ws: string): Promise<number> {
  const r = await db.selectFrom('api_keys').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertKey(db: AgentsDb, key: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

/** False when the workspace has no such key. */
export async function deleteKey(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('api_keys').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
