import type { Selectable } from 'kysely';
import { notFound } from '../../core/errors';
import type { AgentsDb, CreditLedgerTable } from '../schema';

/** Why credits moved: each ledger row names one. */
export type LedgerReason = 'signup' | 'opening' | 'chat' | 'purchase' | 'subscription' | 'renewal' | 'recharge' | 'admin' | 'refund';

export type LedgerEntry = Selectable<CreditLedgerTable>;

/** Runs `work` in a transaction, or in the caller's when `db` already is one. */
export const inTransaction = <T>(db: AgentsDb, work: (tx: AgentsDb) => Promise<T>): Promise<T> => (db.isTransaction ? work(db) : db.transaction().execute(work));

const ENTRY = ['id', 'workspace_id', 'delta', 'balance', 'reason', 'ref', 'note', 'created_at'] as const;

export interface PostOptions {
  /** Names the payment or event behind the entry: a second post with the same ref changes nothing. */
  ref?: string | null;
  note?: string;
  /** Refuse (return null) when the balance would fall below this. */
  floor?: number;
}

/**
 * Appends one entry to the workspace's credit ledger; the balance (cached in workspaces.credits by
 * a trigger) is always the sum of the entries. Returns the new entry, the earlier one for a ref
 * already posted, or null when the floor refuses it.
 *
 * Exact under concurrency across processes: one conditional UPDATE of the workspace row checks the floor
 * and locks the row (PostgreSQL: a row lock; SQLite: the write lock of BEGIN IMMEDIATE) until the entry is
 * written in the same transaction, so two spenders never both pass the check on the same balance. The
 * schema lets workspaces.credits change only through the ledger (a trigger applies each entry), so the
 * UPDATE re-writes the balance it checked and the entry's trigger moves it.
 */
export async function postLedger(db: AgentsDb, ws: string, delta: number, reason: LedgerReason, opts: PostOptions = {}): Promise<(LedgerEntry & { duplicate: boolean }) | null> {
  if (!Number.isInteger(delta)) throw new Error('ledger delta must be an integer');
  return inTransaction(db, async (tx) => {
    const min = opts.floor === undefined ? null : opts.floor - delta;
    const w = await tx
      .updateTable('workspaces')
      .set((eb) => ({ credits: eb.ref('credits') }))
      .where('id', '=', ws)
      .$if(min !== null, (qb) => qb.where('credits', '>=', min as number))
      .returning('credits')
      .executeTakeFirst();
    if (opts.ref) {
      // Checked after the row lock: a concurrent post of the same ref has committed (or not begun).
      const seen = await tx.selectFrom('credit_ledger').select(ENTRY).where('ref', '=', opts.ref).executeTakeFirst();
      if (seen) return { ...seen, duplicate: true };
    }
    if (!w) {
      const exists = await tx.selectFrom('workspaces').select('id').where('id', '=', ws).executeTakeFirst();
      if (!exists) throw notFound('workspace not found');
      return null;
    }
    const row = await tx
      .insertInto('credit_ledger')
      .values({ workspace_id: ws, delta, balance: w.credits + delta, reason, ref: opts.ref ?? null, note: opts.note ?? '', created_at: Date.now() })
      .returning(ENTRY)
      .executeTakeFirstOrThrow();
    return { ...row, duplicate: false };
  });
}

export async function balanceOf(db: AgentsDb, ws: string): Promise<number> {
  const r = await db.selectFrom('workspaces').select('credits').where('id', '=', ws).executeTakeFirst();
  return r?.credits ?? 0;
}

/** The wallet's balance and whether the bot is paused (undefined: no such workspace). */
export async function walletState(db: AgentsDb, ws: string): Promise<{ credits: number; paused: number } | undefined> {
  return db.selectFrom('workspaces').select(['credits', 'paused']).where('id', '=', ws).executeTakeFirst();
}

export async function ledgerEntries(db: AgentsDb, ws: string, limit = 50): Promise<LedgerEntry[]> {
  return db.selectFrom('credit_ledger').select(ENTRY).where('workspace_id', '=', ws).orderBy('id', 'desc').limit(limit).execute();
}

export function presentEntry(e: LedgerEntry) {
  return { id: e.id, delta: e.delta, balance: e.balance, reason: e.reason, note: e.note, created_at: new Date(e.created_at).toISOString() };
}

/** Posts the one entry that brings the balance to `target` (operator corrections, tests); exact under concurrency. */
export async function setBalance(db: AgentsDb, ws: string, target: number, reason: LedgerReason = 'admin', note = ''): Promise<LedgerEntry | null> {
  return inTransaction(db, async (tx) => {
    const w = await tx.updateTable('workspaces').set((eb) => ({ credits: eb.ref('credits') })).where('id', '=', ws).returning('credits').executeTakeFirst();
    const delta = target - (w?.credits ?? 0);
    if (delta === 0) return null;
    return postLedger(tx, ws, delta, reason, { note });
  });
}
