import { afterEach, describe, expect, it } from 'vitest';
import type { AgentsDb } from '../schema';
import { openTestStore } from '../store.testkit';
import { balanceOf, ledgerEntries, postLedger, setBalance } from './ledger';

let db: AgentsDb;
let close: () => Promise<void> = async () => {};
afterEach(() => close());

/** A migrated store on the store under test with one workspace holding `credits`. */
async function workspace(credits: number): Promise<string> {
  const store = await openTestStore();
  db = store.db;
  close = store.close;
  await db.insertInto('users').values({ id: 'u1', email: 'a@example.com', password_hash: 'x', created_at: 1 }).execute();
  await db.insertInto('workspaces').values({ id: 'ws1', name: 'W', owner_id: 'u1', credits, created_at: 1 }).execute();
  return 'ws1';
}
const sum = async (ws: string) => Number((await db.selectFrom('credit_ledger').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)).as('s')).where('workspace_id', '=', ws).executeTakeFirstOrThrow()).s);

describe('credit ledger', () => {
  it('opens with the signup credits and keeps the balance equal to the sum of its entries', async () => {
    const ws = await workspace(100);
    expect((await ledgerEntries(db, ws)).map((e) => [e.reason, e.delta, e.balance])).toEqual([['signup', 100, 100]]);
    await postLedger(db, ws, -1, 'chat');
    await postLedger(db, ws, 500, 'purchase', { ref: 'stripe:cs_1' });
    expect(await balanceOf(db, ws)).toBe(599);
    expect(await sum(ws)).toBe(599);
  });

  it('posts a ref once: the second post returns the first entry and changes nothing', async () => {
    const ws = await workspace(0);
    const a = await postLedger(db, ws, 250, 'purchase', { ref: 'stripe:cs_2' });
    const b = await postLedger(db, ws, 250, 'purchase', { ref: 'stripe:cs_2' });
    expect(a?.duplicate).toBe(false);
    expect(b).toMatchObject({ id: a?.id, duplicate: true });
    expect(await balanceOf(db, ws)).toBe(250);
  });

  it('refuses a debit below the floor and stores nothing', async () => {
    const ws = await workspace(1);
    expect((await postLedger(db, ws, -1, 'chat', { floor: 0 }))?.balance).toBe(0);
    expect(await postLedger(db, ws, -1, 'chat', { floor: 0 })).toBeNull();
    expect(await ledgerEntries(db, ws)).toHaveLength(2);
  });

  it('posts concurrently without losing or minting a credit, and the floor holds', async () => {
    const ws = await workspace(30);
    const spends = await Promise.all(Array.from({ length: 50 }, (_, i) => postLedger(db, ws, -1, 'chat', { floor: 0, note: `turn ${i}` })));
    const grants = await Promise.all(Array.from({ length: 5 }, () => postLedger(db, ws, 100, 'purchase', { ref: 'stripe:cs_same' })));
    expect(spends.filter((s) => s !== null)).toHaveLength(30);
    expect(grants.filter((g) => g && !g.duplicate)).toHaveLength(1);
    expect(await balanceOf(db, ws)).toBe(100);
    expect(await sum(ws)).toBe(100);
  });

  it('is append-only and the cached balance cannot be written around it', async () => {
    const ws = await workspace(10);
    await expect(db.updateTable('credit_ledger').set({ delta: 1000 }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('credit_ledger').execute()).rejects.toThrow(/append-only/);
    await expect(db.updateTable('workspaces').set({ credits: 1000 }).where('id', '=', ws).execute()).rejects.toThrow(/only through the credit ledger/);
    await expect(db.insertInto('credit_ledger').values({ workspace_id: ws, delta: 5, balance: 99, reason: 'admin', created_at: 1 }).execute()).rejects.toThrow(/previous balance plus delta/);
    await setBalance(db, ws, 3);
    expect(await balanceOf(db, ws)).toBe(3);
    expect(await sum(ws)).toBe(3);
  });
});
