import type { Insertable } from 'kysely';
import { countAll } from '../sql';
import type { AgentsDb, DomainsTable } from '../schema';

const COLUMNS = ['id', 'workspace_id', 'agent_id', 'domain', 'status', 'error', 'cname', 'checked_at', 'verified_at', 'created_at', 'verify_token'] as const;

export async function domainById(db: AgentsDb, ws: string, id: string) {
  return db.selectFrom('domains').select(COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function listDomains(db: AgentsDb, ws: string, agentId: string | null) {
  let q = db.selectFrom('domains').select(COLUMNS).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return q.orderBy('created_at').orderBy('id').execute();
}

export async function domainNamed(db: AgentsDb, ws: string, domain: string) {
  return db.selectFrom('domains').select('id').where('workspace_id', '=', ws).where('domain', '=', domain).executeTakeFirst();
}

export async function countDomains(db: AgentsDb, ws: string): Promise<number> {
  const { n } = await db.selectFrom('domains').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirstOrThrow();
  return Number(n);
}

/** Adds a claim; the unique (workspace_id, domain) refuses a second claim of the same workspace. */
export async function insertDomain(db: AgentsDb, row: Insertable<DomainsTable>): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

export async function deleteDomain(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('domains').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Drops every other workspace's (and any other) claim on the name: the proven owner's claim stays. */
export async function deleteOtherClaims(db: AgentsDb, domain: string, keepId: string): Promise<void> {
  await db.deleteFrom('domains').where('domain', '=', domain).where('id', '<>', keepId).execute();
}

export async function recordCheck(
  db: AgentsDb, id: string,
  check: { status: string; error: string | null; cname: string | null; verified: boolean; now: number },
): Promise<void> {
  await db
    .updateTable('domains')
    .set((eb) => ({
      status: check.status, error: check.error, cname: check.cname, checked_at: check.now, updated_at: check.now,
      verified_at: check.verified ? eb.fn.coalesce('verified_at', eb.val(check.now)) : null,
    }))
    .where('id', '=', id)
    .execute();
}
