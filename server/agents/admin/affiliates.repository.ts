import { sql } from 'kysely';
import { countAll } from '../sql';
import type { AgentsDb } from '../schema';

/** Operator reads and decisions on the affiliate program (admin side of the affiliate tables). */

function listed(db: AgentsDb) {
  return db
    .selectFrom('affiliates as a')
    .innerJoin('users as u', 'u.id', 'a.user_id');
}
const LISTED_COLUMNS = ['a.id', 'a.user_id', 'u.email', 'a.workspace_id', 'a.display_name', 'a.promo_code', 'a.kyc_status', 'a.status', 'a.payout_method', 'a.created_at'] as const;

export async function findAffiliate(db: AgentsDb, id: string) {
  return listed(db).select(LISTED_COLUMNS).where('a.id', '=', id).executeTakeFirst();
}

/** `value` contains `needle` (any case, % and _ taken literally). ESCAPE is spelled out: SQLite has no default escape character. */
const containsText = (column: 'u.email' | 'a.display_name', needle: string) =>
  sql<boolean>`lower(${sql.ref(column)}) LIKE ${`%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`;

function filtered(db: AgentsDb, f: { status?: string; search?: string }) {
  let q = listed(db);
  if (f.status) q = q.where('a.kyc_status', '=', f.status);
  const search = f.search;
  if (search) q = q.where((eb) => eb.or([containsText('u.email', search), containsText('a.display_name', search)]));
  return q;
}

export async function countAffiliates(db: AgentsDb, f: { status?: string; search?: string }): Promise<number> {
  return Number((await filtered(db, f).select(countAll().as('n')).executeTakeFirstOrThrow()).n);
}

export async function affiliatesPage(db: AgentsDb, f: { status?: string; search?: string }, limit: number, offset: number) {
  return filtered(db, f).select(LISTED_COLUMNS).orderBy('a.created_at', 'desc').orderBy('a.id').limit(limit).offset(offset).execute();
}

/** The affiliate's newest identity document. */
export async function latestKyc(db: AgentsDb, affiliateId: string) {
  return db
    .selectFrom('affiliate_kyc')
    .select(['id', 'affiliate_id', 'mime', 'data', 'status', 'note', 'submitted_at', 'reviewed_at'])
    .where('affiliate_id', '=', affiliateId)
    .orderBy('submitted_at', 'desc')
    .orderBy('rowid', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Records the decision on a document still pending, and the affiliate's KYC status with it.
 * False (nothing changed) when the document was decided meanwhile.
 */
export async function decideKyc(db: AgentsDb, kycId: string, affiliateId: string, decision: string, note: string, by: string, now: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const r = await tx
      .updateTable('affiliate_kyc')
      .set({ status: decision, note, reviewed_at: now, reviewed_by: by })
      .where('id', '=', kycId)
      .where('affiliate_id', '=', affiliateId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await tx.updateTable('affiliates').set({ kyc_status: decision, updated_at: now }).where('id', '=', affiliateId).execute();
    return true;
  });
}

export async function countPayouts(db: AgentsDb, status?: string): Promise<number> {
  let q = db.selectFrom('affiliate_payouts').select(countAll().as('n'));
  if (status) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function payoutsPage(db: AgentsDb, status: string | undefined, limit: number, offset: number) {
  let q = db
    .selectFrom('affiliate_payouts as p')
    .innerJoin('affiliates as a', 'a.id', 'p.affiliate_id')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['p.id', 'p.affiliate_id', 'u.email']);
  if (status) q = q.where('p.status', '=', status);
  return q.orderBy('p.created_at', 'desc').orderBy('p.id').limit(limit).offset(offset).execute();
}

export async function findPayout(db: AgentsDb, id: string) {
  return db.selectFrom('affiliate_payouts').select(['status', 'affiliate_id']).where('id', '=', id).executeTakeFirst();
}

/** Decides a payout still requested; false when it was decided meanwhile. */
export async function decidePayout(db: AgentsDb, id: string, decision: string, note: string, by: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('affiliate_payouts')
    .set({ status: decision, note, decided_at: now, decided_by: by })
    .where('id', '=', id)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
