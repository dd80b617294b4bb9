import type { StudioDb } from '../db';
import type { CreditLedgerTable, Pass, Surface } from '../schema';

/**
 * Credits, passes and usage. The balance row moves in the same transaction as the ledger entry that
 * explains it; a charge that must not overdraw is one conditional UPDATE, so concurrent spenders in
 * any number of processes cannot both pass a read-then-write check.
 */

export async function balanceOf(db: StudioDb, ws: number): Promise<number> {
  const r = await db.selectFrom('credit_balances').select('balance').where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r?.balance ?? 0);
}

/** Adds `amount` (negative to take, with no floor); returns the new balance. */
export async function addToBalance(db: StudioDb, ws: number, amount: number): Promise<number> {
  const r = await db
    .insertInto('credit_balances').values({ workspace_id: ws, balance: amount })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet((eb) => ({ balance: eb('credit_balances.balance', '+', eb.ref('excluded.balance')) })))
    .returning('balance')
    .executeTakeFirstOrThrow();
  return Number(r.balance);
}

/** Takes `cost` only while the balance covers it; the new balance, or null when it does not. */
export async function spendIfCovered(db: StudioDb, ws: number, cost: number): Promise<number | null> {
  const r = await db
    .updateTable('credit_balances')
    .set((eb) => ({ balance: eb('balance', '-', cost) }))
    .where('workspace_id', '=', ws).where('balance', '>=', cost)
    .returning('balance')
    .executeTakeFirst();
  return r ? Number(r.balance) : null;
}

export async function appendLedger(
  db: StudioDb, ws: number, amount: number, reason: CreditLedgerTable['reason'], jobId: string | null, note: string | null, now: string,
): Promise<void> {
  await db.insertInto('credit_ledger').values({ workspace_id: ws, amount, reason, job_id: jobId, note, created_at: now }).execute();
}

export async function activePasses(db: StudioDb, ws: number, now: string): Promise<Pass[]> {
  return db
    .selectFrom('passes').select(['id', 'scope', 'surface', 'expires_at', 'created_at'])
    .where('workspace_id', '=', ws).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at')
    .execute();
}

export async function insertPass(db: StudioDb, ws: number, pass: Pass): Promise<void> {
  await db.insertInto('passes').values({ ...pass, workspace_id: ws }).execute();
}

export async function usageIn(db: StudioDb, ws: number, month: number): Promise<{ posts: number; ai_units: number }> {
  const r = await db.selectFrom('usage').select(['posts', 'ai_units']).where('workspace_id', '=', ws).where('month', '=', month).executeTakeFirst();
  return { posts: Number(r?.posts ?? 0), ai_units: Number(r?.ai_units ?? 0) };
}

/** The workspace's plan and its usage in its current allowance month, in one statement (undefined: no such workspace). */
export async function planAndUsage(db: StudioDb, ws: number) {
  const r = await db
    .selectFrom('workspaces as w')
    .leftJoin('usage as u', (j) => j.onRef('u.workspace_id', '=', 'w.id').onRef('u.month', '=', 'w.month'))
    .select(['w.plan', 'u.posts', 'u.ai_units'])
    .where('w.id', '=', ws)
    .executeTakeFirst();
  return r && { plan: r.plan, posts: Number(r.posts ?? 0), ai_units: Number(r.ai_units ?? 0) };
}

/**
 * A generation's price inputs in one statement: the workspace's plan, its usage this allowance month and its
 * active passes, oldest first (an empty list without any). Undefined: no such workspace.
 */
export async function planUsageAndPasses(db: StudioDb, ws: number, now: string) {
  const rows = await db
    .selectFrom('workspaces as w')
    .leftJoin('usage as u', (j) => j.onRef('u.workspace_id', '=', 'w.id').onRef('u.month', '=', 'w.month'))
    .leftJoin('passes as p', (j) => j.onRef('p.workspace_id', '=', 'w.id').on((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)])))
    .select(['w.plan', 'u.posts', 'u.ai_units', 'p.id as pass_id', 'p.scope', 'p.surface', 'p.expires_at', 'p.created_at'])
    .where('w.id', '=', ws)
    .orderBy('p.created_at')
    .execute();
  if (!rows.length) return undefined;
  const passes: Pass[] = rows
    .filter((r) => r.pass_id !== null)
    .map((r) => ({ id: r.pass_id!, scope: r.scope!, surface: r.surface, expires_at: r.expires_at, created_at: r.created_at! }));
  return { plan: rows[0].plan, posts: Number(rows[0].posts ?? 0), ai_units: Number(rows[0].ai_units ?? 0), passes };
}

/**
 * Counts `n` more in the workspace's current allowance month (read from the workspace row in the same statement).
 * With a `limit` the upsert is conditional (usage + n <= limit, checked on the locked usage row, so concurrent
 * writers in any number of processes cannot both take the last unit): false when it would pass the limit and
 * nothing was counted. Null limit: unlimited, always counted.
 */
export async function addUsage(db: StudioDb, ws: number, kind: 'posts' | 'ai_units', n: number, limit: number | null = null): Promise<boolean> {
  if (limit !== null && n > limit) return false;
  const r = await db
    .insertInto('usage')
    .columns(['workspace_id', 'month', kind])
    .expression((eb) => eb.selectFrom('workspaces').select([eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), 'month', eb.cast<number>(eb.val(n), 'integer').as(kind)]).where('id', '=', ws))
    .onConflict((oc) => {
      const up = oc.columns(['workspace_id', 'month']).doUpdateSet((eb) => ({ [kind]: eb(`usage.${kind}`, '+', eb.ref(`excluded.${kind}`)) }));
      return limit === null ? up : up.where((eb) => eb(eb(`usage.${kind}`, '+', eb.ref(`excluded.${kind}`)), '<=', limit));
    })
    .returning(kind)
    .executeTakeFirst();
  return r !== undefined;
}

export type { Surface };
