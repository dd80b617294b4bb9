import { stmt, type Db } from '../db';

/** Why credits moved: each ledger row names one. */
export type LedgerReason = 'signup' | 'opening' | 'chat' | 'purchase' | 'subscription' | 'renewal' | 'recharge' | 'admin' | 'refund';

export interface LedgerEntry {
  id: number;
  workspace_id: string;
  delta: number;
  balance: number;
  reason: string;
  ref: string | null;
  note: string;
  created_at: number;
}

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
 */
export function postLedger(db: Db, ws: string, delta: number, reason: LedgerReason, opts: PostOptions = {}): (LedgerEntry & { duplicate: boolean }) | null {
  if (!Number.isInteger(delta)) throw new Error('ledger delta must be an integer');
  return db.transaction(() => {
    if (opts.ref) {
      const seen = stmt(db, 'SELECT * FROM credit_ledger WHERE ref = ?').get(opts.ref) as LedgerEntry | undefined;
      if (seen) return { ...seen, duplicate: true };
    }
    const w = stmt(db, 'SELECT credits FROM workspaces WHERE id = ?').get(ws) as { credits: number } | undefined;
    if (!w) throw new Error(`no workspace ${ws}`);
    const balance = w.credits + delta;
    if (opts.floor !== undefined && balance < opts.floor) return null;
    const row = stmt(db, 'INSERT INTO credit_ledger (workspace_id, delta, balance, reason, ref, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *')
      .get(ws, delta, balance, reason, opts.ref ?? null, opts.note ?? '', Date.now()) as LedgerEntry;
    return { ...row, duplicate: false };
  })();
}

export function balanceOf(db: Db, ws: string): number {
  const r = db.prepare('SELECT credits FROM workspaces WHERE id = ?').get(ws) as { credits: number } | undefined;
  return r?.credits ?? 0;
}

export function ledgerEntries(db: Db, ws: string, limit = 50): LedgerEntry[] {
  return db.prepare('SELECT * FROM credit_ledger WHERE workspace_id = ? ORDER BY id DESC LIMIT ?').all(ws, limit) as LedgerEntry[];
}

export function presentEntry(e: LedgerEntry) {
  return { id: e.id, delta: e.delta, balance: e.balance, reason: e.reason, note: e.note, created_at: new Date(e.created_at).toISOString() };
}

/** Posts the one entry that brings the balance to `target` (operator corrections, tests). */
export function setBalance(db: Db, ws: string, target: number, reason: LedgerReason = 'admin', note = ''): LedgerEntry | null {
  const delta = target - balanceOf(db, ws);
  if (delta === 0) return null;
  return postLedger(db, ws, delta, reason, { note });
}
