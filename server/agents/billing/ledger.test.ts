import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { openTestStore } from '../store.testkit';
import { balanceOf, ledgerEntries, postLedger, setBalance } from './ledger';

let db: Db;
let close = async () => {};
beforeEach(async () => void ({ legacy: db, close } = await openTestStore()));
afterEach(() => close());

function workspace(credits: number): string {
  db.prepare("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u1', 'a@example.com', 'x', 1)").run();
  db.prepare("INSERT INTO workspaces (id, name, owner_id, credits, created_at) VALUES ('ws1', 'W', 'u1', ?, 1)").run(credits);
  return 'ws1';
}
const sum = (ws: string) => (db.prepare('SELECT COALESCE(SUM(delta), 0) AS s FROM credit_ledger WHERE workspace_id = ?').get(ws) as { s: number }).s;

describe('credit ledger', () => {
  it('opens with the signup credits and keeps the balance equal to the sum of its entries', () => {
    const ws = workspace(100);
    expect(ledgerEntries(db, ws).map((e) => [e.reason, e.delta, e.balance])).toEqual([['signup', 100, 100]]);
    postLedger(db, ws, -1, 'chat');
    postLedger(db, ws, 500, 'purchase', { ref: 'stripe:cs_1' });
    expect(balanceOf(db, ws)).toBe(599);
    expect(sum(ws)).toBe(599);
  });

  it('posts a ref once: the second post returns the first entry and changes nothing', () => {
    const ws = workspace(0);
    const a = postLedger(db, ws, 250, 'purchase', { ref: 'stripe:cs_2' });
    const b = postLedger(db, ws, 250, 'purchase', { ref: 'stripe:cs_2' });
    expect(a?.duplicate).toBe(false);
    expect(b).toMatchObject({ id: a?.id, duplicate: true });
    expect(balanceOf(db, ws)).toBe(250);
  });

  it('refuses a debit below the floor and stores nothing', () => {
    const ws = workspace(1);
    expect(postLedger(db, ws, -1, 'chat', { floor: 0 })?.balance).toBe(0);
    expect(postLedger(db, ws, -1, 'chat', { floor: 0 })).toBeNull();
    expect(ledgerEntries(db, ws)).toHaveLength(2);
  });

  it('is append-only and the cached balance cannot be written around it', () => {
    const ws = workspace(10);
    expect(() => db.prepare('UPDATE credit_ledger SET delta = 1000').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM credit_ledger').run()).toThrow(/append-only/);
    expect(() => db.prepare('UPDATE workspaces SET credits = 1000 WHERE id = ?').run(ws)).toThrow(/only through the credit ledger/);
    expect(() => db.prepare("INSERT INTO credit_ledger (workspace_id, delta, balance, reason, created_at) VALUES (?, 5, 99, 'admin', 1)").run(ws)).toThrow(/previous balance plus delta/);
    setBalance(db, ws, 3);
    expect(balanceOf(db, ws)).toBe(3);
    expect(sum(ws)).toBe(3);
  });
});
