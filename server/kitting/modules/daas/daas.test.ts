import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { declaredCap } from '../../store/caps';
import { DAAS_SENDS, daasPricing, PORTFOLIO_CAP, SEND_CAP } from './daas.service';

interface DQ { id: string; cust: string; model: string; qty: number; term: number; res: number; lcm: boolean; war: boolean; price: number; monthly: number; mrr: number; expires: string; ts: number; status: string; statusTs: number; statusLabel: string; contracted: string | null }
interface Totals { units: number; mrr: number; arr: number; contracts: number; pipelineUnits: number; pipelineMrr: number; byStatus: Record<string, number> }
type StatusBody = { ok: boolean; quote: DQ; from: string; totals: Totals; error?: string; allowed?: unknown; missing?: string[]; needs?: string[] };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const create = async (c: Client, body: Record<string, unknown>) => (await c.post<{ quote: DQ }>('/api/daas/quote', body)).body.quote;
const status = (c: Client, id: string, s: unknown) => c.post<StatusBody>(`/api/daas/quote/${id}/status`, { status: s });
const valid = { cust: '株式会社テスト', model: 'iPhone 16', qty: 50, expires: '2099-12-31' };

describe('DaaS pricing (this project\'s formula)', () => {
  it('charges the used-up device value plus 3 %/year over the term, rounded up to 10 yen, plus options', () => {
    // 124800 × 0.8 × 1.09 ÷ 36 = 3022.9… → 3030
    expect(daasPricing({ price: 124800, qty: 10, term: 36, res: 20, lcm: false, war: false })).toEqual({ monthly: 3030, mrr: 30300 });
    expect(daasPricing({ price: 124800, qty: 10, term: 36, res: 20, lcm: true, war: true })).toEqual({ monthly: 4080, mrr: 40800 });
    // exact multiple stays: 120000 × 1 × 1.03 ÷ 12 = 10300
    expect(daasPricing({ price: 120000, qty: 1, term: 12, res: 0, lcm: false, war: false }).monthly).toBe(10300);
  });
});

describe('GET /api/daas', () => {
  it('returns seeded quotes, sim null and no sends on a fresh workspace', async () => {
    const res = await server.client().get<{ ok: boolean; quotes: DQ[]; sim: unknown; sends: unknown[] }>('/api/daas');
    expect(res.status).toBe(200);
    expect(res.body.quotes.length).toBeGreaterThan(0);
    expect(res.body.sim).toBeNull();
    expect(res.body.sends).toEqual([]);
  });
});

describe('POST /api/daas/quote', () => {
  it('creates a draft with server-computed monthly and mrr, and updates by id', async () => {
    const c = server.client();
    const q = await create(c, valid);
    expect(q).toMatchObject({ status: 'draft', statusLabel: '下書き', term: 36, res: 20, lcm: true, war: true, price: 124800, contracted: null });
    expect(q.monthly).toBe(daasPricing({ price: 124800, qty: 50, term: 36, res: 20, lcm: true, war: true }).monthly);
    expect(q.mrr).toBe(q.monthly * 50);
    const u = await create(c, { id: q.id, qty: 100, monthly: 1, mrr: 1 });
    expect(u.id).toBe(q.id);
    expect(u.qty).toBe(100);
    expect(u.mrr).toBe(q.monthly * 100);
    expect(u.cust).toBe(valid.cust);
  });

  it('refuses an unknown model without price and a malformed expiry', async () => {
    const c = server.client();
    const a = await c.post('/api/daas/quote', { model: '謎の端末' });
    expect(a.status).toBe(400);
    expect(a.body.error).toBe('price required');
    const ok = await c.post<{ quote: DQ }>('/api/daas/quote', { model: '謎の端末', price: 50000 });
    expect(ok.body.quote.price).toBe(50000);
    const b = await c.post('/api/daas/quote', { expires: '31/12/2099' });
    expect(b.status).toBe(400);
    expect(b.body.error).toBe('invalid expires');
    // shaped right but not a calendar date
    for (const expires of ['2099-02-30', '2099-13-01']) {
      const r = await c.post('/api/daas/quote', { expires });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid expires');
    }
  });

  it('caps the portfolio, dropping the oldest first', async () => {
    const c = server.client();
    const first = await create(c, { cust: 'first' });
    for (let i = 0; i < PORTFOLIO_CAP; i++) await create(c, { cust: `q${i}` });
    const list = (await c.get<{ quotes: DQ[] }>('/api/daas')).body.quotes;
    expect(list).toHaveLength(PORTFOLIO_CAP);
    expect(list.some((q) => q.id === first.id)).toBe(false);
    expect(list[0]?.cust).toBe(`q${PORTFOLIO_CAP - 1}`);
  });
});

describe('POST /api/daas/quote/{id}/status', () => {
  it('moves one stage at a time and counts only contracted quotes in totals', async () => {
    const c = server.client();
    const base = (await status(c, (await create(c, valid)).id, 'draft')).body.totals;
    const q = await create(c, valid);
    const p = await status(c, q.id, 'proposed');
    expect(p.body).toMatchObject({ ok: true, from: 'draft', quote: { status: 'proposed', statusLabel: '提案中' } });
    expect(p.body.totals.pipelineMrr - base.pipelineMrr).toBe(q.mrr);
    const a = await status(c, q.id, 'approved');
    expect(a.body.quote.statusLabel).toBe('承認');
    expect(a.body.totals.mrr).toBe(base.mrr);
    const k = await status(c, q.id, 'contracted');
    expect(k.body.quote).toMatchObject({ status: 'contracted', statusLabel: '契約中', contracted: jstDate() });
    expect(k.body.totals.mrr - base.mrr).toBe(q.mrr);
    expect(k.body.totals.units - base.units).toBe(50);
    expect(k.body.totals.arr).toBe(k.body.totals.mrr * 12);
    expect(k.body.totals.contracts - base.contracts).toBe(1);
    expect(k.body.totals.byStatus.contracted).toBe(k.body.totals.contracts);
  });

  it('allows any backward move and clears the contract date', async () => {
    const c = server.client();
    const q = await create(c, valid);
    for (const s of ['proposed', 'approved', 'contracted']) await status(c, q.id, s);
    const back = await status(c, q.id, 'proposed');
    expect(back.status).toBe(200);
    expect(back.body.from).toBe('contracted');
    expect(back.body.quote.contracted).toBeNull();
    expect((await status(c, q.id, 'draft')).body.quote.status).toBe('draft');
  });

  it('gives stage skipped naming the allowed next stage', async () => {
    const c = server.client();
    const q = await create(c, valid);
    const r = await status(c, q.id, 'approved');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ok: false, error: 'stage skipped', allowed: 'proposed' });
    expect((await status(c, q.id, 'contracted')).body.error).toBe('stage skipped');
    expect((await c.get<{ quotes: DQ[] }>('/api/daas')).body.quotes.find((x) => x.id === q.id)?.status).toBe('draft');
  });

  it('gives unknown status with the list', async () => {
    const c = server.client();
    const q = await create(c, valid);
    const r = await status(c, q.id, 'won');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'unknown status', allowed: ['draft', 'proposed', 'approved', 'contracted'] });
  });

  it('needs customer and expiry for approved and contracted', async () => {
    const c = server.client();
    const q = await create(c, { model: 'iPhone 16' });
    await status(c, q.id, 'proposed');
    const r = await status(c, q.id, 'approved');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'customer and expiry required', missing: ['cust', 'expires'], needs: ['cust', 'expires'] });
    await create(c, { id: q.id, cust: '顧客あり' });
    expect((await status(c, q.id, 'approved')).body.missing).toEqual(['expires']);
  });

  it('refuses an expired quote', async () => {
    const c = server.client();
    const q = await create(c, { ...valid, expires: '2020-01-01' });
    await status(c, q.id, 'proposed');
    const r = await status(c, q.id, 'approved');
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('quote expired');
  });

  it('404s an unknown quote', async () => {
    const r = await status(server.client(), 'DQ-none', 'proposed');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('quote not found');
  });
});

describe('DaaS delete, sim and send', () => {
  it('deletes a quote', async () => {
    const c = server.client();
    const q = await create(c, valid);
    expect((await c.post(`/api/daas/quote/${q.id}/delete`)).body).toEqual({ ok: true, id: q.id });
    expect((await c.post(`/api/daas/quote/${q.id}/delete`)).status).toBe(404);
  });

  it('saves sim prefs with defaults and clamps', async () => {
    const c = server.client();
    const r = await c.post<{ sim: Record<string, unknown> }>('/api/daas/sim', { model: 'iPad Air', qty: 0, term: 999, res: 80, lcm: false });
    expect(r.body.sim).toMatchObject({ model: 'iPad Air', qty: 1, term: 60, res: 50, lcm: false, war: true, cust: '' });
    const got = (await c.get<{ sim: Record<string, unknown> }>('/api/daas')).body.sim;
    expect(got).toMatchObject({ model: 'iPad Air', term: 60 });
  });

  it('records sends newest first, capped at 50', async () => {
    const c = server.client();
    const q = await create(c, valid);
    const s = await c.post<{ send: Record<string, unknown> }>('/api/daas/send', { quoteId: q.id, to: 'a@example.jp', doc: '御見積書' });
    expect(s.body.send).toMatchObject({ cust: valid.cust, model: 'iPhone 16', qty: 50, mrr: q.mrr, to: 'a@example.jp' });
    for (let i = 0; i < 55; i++) await c.post('/api/daas/send', { cust: `c${i}` });
    const sends = (await c.get<{ sends: { cust: string }[] }>('/api/daas')).body.sends;
    expect(sends).toHaveLength(50);
    expect(sends[0]?.cust).toBe('c54');
    expect(sends.at(-1)?.cust).toBe('c5');
    expect((await c.post('/api/daas/send', {})).status).toBe(400);
  });

  it('keeps 50 sends on every replica: the cap is declared, and GET never answers more than 50', async () => {
    expect(declaredCap(DAAS_SENDS)).toBe(SEND_CAP);
    const c = server.client();
    await c.get('/api/daas');
    const raw = decodeURIComponent(c.cookie('kit_tid') ?? '');
    let ws = '';
    for (const cand of [raw, ...raw.split(/[.:]/)]) if (cand && (await server.store.workspace(cand))) ws = cand;
    // records written without the trim, as when they arrive from another replica
    await server.store.transact(ws, async (tx) => {
      for (let i = 0; i < 60; i++) await tx.put(DAAS_SENDS, `ds-x${i}`, { id: `ds-x${i}`, ts: 1_000 + i, cust: `x${i}` });
    });
    const sends = (await c.get<{ sends: { cust: string }[] }>('/api/daas')).body.sends;
    expect(sends).toHaveLength(50);
    expect(sends[0]?.cust).toBe('x59');
  });
});
