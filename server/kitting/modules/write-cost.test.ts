import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuery, rig, shape, unboundedSteps, type Rig } from '../testing/write-cost.testkit';

/**
 * Writes beyond the ledger must not read whole collections either: deleting a ticket (its messages),
 * issuing a quote to a customer named in it, editing and removing team members (the owners rule),
 * ordering a registered store product, issuing a month's invoices, saving and drafting the roster
 * (only the staff it names), editing and clocking staff, moving a DaaS quote (the portfolio totals),
 * publishing a portal. Each runs the same statements
 * with 100 or 5,000 records in the collections it touches, each reaching its rows by a full unique
 * key or through a declared lookup's index. Checked on SQL and query plans, never on time.
 */

const SMALL = 100;
const LARGE = 5_000;
const CUSTOMER = 'コスト検証株式会社';
let measuredRuns = 0;
const lines = { ini: [{ n: 'キッティング作業', q: 10, p: 3000, d: '' }], run: [{ n: '保守サポート', q: 10, p: 505, d: '' }] };

/** Grow the collections the writes below touch to `target` records each (records of other owners). */
async function fillTo(r: Rig, from: number, target: number): Promise<void> {
  await r.store.transact(r.ws, async (tx) => {
    for (let i = from; i < target; i++) {
      await tx.put('ticketMessages', `msg-fill-${i}`, { id: `msg-fill-${i}`, ticketId: `TK-F${i % 50}`, from: '—', text: `fill ${i}`, ts: i });
      await tx.put('customers', `cust-fill-${i}`, { id: `cust-fill-${i}`, name: `顧客F${i}` });
      await tx.put('team', `tfill${i}`, { id: `tfill${i}`, name: `Fill ${i}`, ini: 'FI', role: 'member', dept: '—', email: `fill${i}@example.jp`, account: `acct-fill-${i}`, scopes: {} });
      await tx.put('storeProducts', `cp-fill-${i}`, { id: `cp-fill-${i}`, name: `商品F${i}`, cat: 'その他', ic: '📦', price: 100, cost: 50, note: '', custom: true, created: i });
      await tx.put('invoices', `INV-F-${i}`, { id: `INV-F-${i}`, cust: 'F', month: '2401', desc: '', amount: 1, due: '', status: 'draft', recurring: false, created: i, updated: i });
      await tx.put('staff', `st-fill-${i}`, { id: `st-fill-${i}`, name: `スタッフF${i}`, type: 'own' });
      await tx.put('portals', `cfill${i}`, { id: `cfill${i}`, name: `顧客F${i}`, slug: `fill-${i}`, suffix: `fill-${i}`, published: i % 2 === 0, last: '—' });
      await tx.put('daasQuotes', `DQ-F-${i}`, { id: `DQ-F-${i}`, status: 'draft', qty: 1, mrr: 1, ts: i });
    }
  });
}

const ok = async (p: Promise<{ status: number; body: unknown }>) => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Record<string, never>;
};

/** Statements of each write, after its untraced set-up. */
async function writes(r: Rig): Promise<Record<string, string[]>> {
  const c = r.client;
  const out: Record<string, string[]> = {};

  const ticket = (await ok(c.post('/api/ticket', { subject: '画面割れ' }))).ticket as { id: string };
  out.ticketMessage = await r.statements(() => ok(c.post(`/api/ticket/${ticket.id}/message`, { text: '確認します' })));
  await ok(c.post(`/api/ticket/${ticket.id}/message`, { text: '交換します' }));
  out.ticketDelete = await r.statements(() => ok(c.post(`/api/ticket/${ticket.id}/delete`)));

  const quote = (await ok(c.post('/api/quote', { cust: CUSTOMER, ...lines }))).quote as { id: string };
  out.quoteIssueByName = await r.statements(() => ok(c.post(`/api/quote/${quote.id}/issue`)));

  const member = (await ok(c.post('/api/team/member', { name: 'Cost Member' }))).member as { id: string };
  out.teamEdit = await r.statements(() => ok(c.post(`/api/team/member/${member.id}`, { role: 'admin', dept: '検証' })));
  out.teamDelete = await r.statements(() => ok(c.post(`/api/team/member/${member.id}/delete`)));

  const product = (await ok(c.post('/api/store/product', { name: '特注ケース', price: 2500, cost: 1200 }))).product as { id: string };
  out.storeOrder = await r.statements(() => ok(c.post('/api/store/order', { cust: '検証', lines: [{ id: product.id, qty: 2 }, { id: 'no-such', name: '持込品', price: 10, qty: 1 }] })));

  await ok(c.post('/api/invoice', { cust: '検証', amount: 1000, month: '2201' }));
  out.invoicesIssue = await r.statements(() => ok(c.post('/api/invoices/issue', { month: '2201' })));

  const staff = (await ok(c.post('/api/staff', { name: '検証 太郎' }))).staff as { id: string };
  const week = ['day', 'day', 'late', 'night', 'off', 'off', 'day'];
  out.shiftsSave = await r.statements(() => ok(c.post('/api/shifts', { grid: { [staff.id]: week, 'st-none': week } })));
  out.shiftsDraft = await r.statements(() => ok(c.post('/api/shifts/draft', { grid: { [staff.id]: week.slice().reverse() } })));
  out.staffEdit = await r.statements(() => ok(c.post(`/api/staff/${staff.id}`, { type: 'agency' })));
  out.punch = await r.statements(() => ok(c.post(`/api/timeclock/${staff.id}/punch`, {})));

  // Put directly: a posted quote would trim the filled portfolio back to its cap.
  const run = ++measuredRuns; // one id per run, read once: two clock reads could straddle a millisecond
  const dqId = `DQ-C-${run}`;
  const dq = await r.store.transact(r.ws, (tx) => tx.put('daasQuotes', dqId, { id: dqId, status: 'draft', qty: 10, mrr: 5000, ts: Date.now() }));
  out.daasStatus = await r.statements(() => ok(c.post(`/api/daas/quote/${dq.id}/status`, { status: 'proposed' })));

  const portalId = `cport${run}`;
  const portal = await r.store.transact(r.ws, (tx) => tx.put('portals', portalId, { id: portalId, name: CUSTOMER, slug: `cost-${run}`, published: false, last: '—' }));
  out.portalIssue = await r.statements(() => ok(c.post('/api/portal/issue', { custId: String(portal.id) })));
  await r.store.transact(r.ws, (tx) => tx.remove('portals', String(portal.id)));
  return out;
}

describe('writes beyond the ledger cost the same with 100 and 5,000 records in their collections', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig('bench');
    await r.store.transact(r.ws, (tx) => tx.put('customers', 'cust-cost', { id: 'cust-cost', name: CUSTOMER }));
  });
  afterAll(() => r.close());

  it('runs the same statements, each by a full unique key or a lookup index', async () => {
    await fillTo(r, 0, SMALL);
    const small = await writes(r);
    await fillTo(r, SMALL, LARGE);
    expect(await r.store.count(r.ws, 'ticketMessages')).toBeGreaterThanOrEqual(LARGE);
    const large = await writes(r);

    for (const op of Object.keys(small)) {
      expect(large[op]?.map(shape), op).toEqual(small[op]?.map(shape));
      const queries = (small[op] ?? []).filter(isQuery);
      expect(queries.length, op).toBeGreaterThan(0);
      const bad = [...new Set(queries)].flatMap((sql) => unboundedSteps(r.store.db, sql));
      expect(bad, op).toEqual([]);
    }
  }, 120_000);
});
