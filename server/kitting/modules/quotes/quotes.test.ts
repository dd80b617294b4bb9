import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { computeTotals, taxOf, volumeBp } from './quote-pricing';

interface Line { n: string; q: number; p: number; d: string }
interface Totals {
  ini: number; iniTax: number; iniTotal: number; iniGross: number; iniDiscount: number;
  run: number; runTax: number; runTotal: number; runGross: number; runDiscount: number;
  arr: number; y1: number; costRate: number; gp: number; gpRate: number; deviceQty: number; perDevice: number | null;
  volumeApplied: boolean; volumeQty: number; volumeMinQty: number; volumeRate: number; taxRate: number;
}
interface Quote { id: string | null; custId: string | null; cust: string; pattern: string; costRate: number; qty: number; ini: Line[]; run: Line[]; signId: string | null; issuedAt?: number | null; updatedAt?: number; totals: Totals }
type QuoteBody = { ok: boolean; quote: Quote; error?: string; errors?: { code: string; field: string }[]; message?: string };

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

const sumLines = (ls: Line[]) => ls.reduce((s, l) => s + l.q * l.p, 0);

/** The contract's observed relations, checked on a totals object. */
function expectRelations(t: Totals, q: { ini: Line[]; run: Line[] }) {
  expect(t.iniGross).toBe(sumLines(q.ini));
  expect(t.runGross).toBe(sumLines(q.run));
  expect(t.ini).toBe(t.iniGross - t.iniDiscount);
  expect(t.run).toBe(t.runGross - t.runDiscount);
  expect(t.iniTax).toBe(Math.floor(t.ini * 0.1));
  expect(t.runTax).toBe(Math.floor(t.run * 0.1));
  expect(t.iniTotal).toBe(t.ini + t.iniTax);
  expect(t.runTotal).toBe(t.run + t.runTax);
  expect(t.arr).toBe(12 * t.run);
  expect(t.y1).toBe(t.ini + t.arr);
  expect(t.gpRate).toBe(100 - t.costRate);
  expect(t.gp).toBe(Math.floor((t.y1 * t.gpRate) / 100));
  expect(t.volumeMinQty).toBe(1000);
  expect(t.taxRate).toBe(0.1);
  for (const v of [t.ini, t.iniTax, t.run, t.runTax, t.gp, t.y1]) expect(Number.isInteger(v)).toBe(true);
}

describe('quote pricing (this project\'s rounding and discount rule)', () => {
  it('rounds tax down to the yen', () => {
    expect(taxOf(1009)).toBe(100);
    expect(taxOf(1000)).toBe(100);
    expect(taxOf(9)).toBe(0);
  });

  it('tiers the volume discount at 1000, 3000 and 5000 devices', () => {
    expect([0, 999, 1000, 2999, 3000, 4999, 5000, 20000].map(volumeBp)).toEqual([0, 0, 300, 300, 500, 500, 800, 800]);
  });

  it('rounds discount and gp down to the yen', () => {
    const t = computeTotals({ ini: [{ n: 'a', q: 1000, p: 333, d: '' }], run: [{ n: 'b', q: 1, p: 7, d: '' }], costRate: 45.5, qty: 1000 });
    expect(t.iniDiscount).toBe(9990); // 333000 × 3 %
    expect(t.runDiscount).toBe(0); // 7 × 3 % = 0.21 → 0
    expect(t.gpRate).toBe(54.5);
    expect(t.gp).toBe(Math.floor(((323010 + 84) * 545) / 1000));
    expect(t.perDevice).toBe(Math.floor((323010 + 84) / 1000));
  });
});

describe('GET /api/quote/catalog', () => {
  it('returns the constant initial and running lines', async () => {
    const a = await api.get<{ ok: boolean; catalog: { initial: Line[]; running: Line[] } }>('/api/quote/catalog');
    const b = await api.get<{ ok: boolean; catalog: { initial: Line[]; running: Line[] } }>('/api/quote/catalog');
    expect(a.status).toBe(200);
    expect(a.body.catalog.initial.length).toBeGreaterThan(0);
    expect(a.body.catalog.running.length).toBeGreaterThan(0);
    for (const l of [...a.body.catalog.initial, ...a.body.catalog.running]) {
      expect(typeof l.n).toBe('string');
      expect(Number.isInteger(l.q) && Number.isInteger(l.p)).toBe(true);
    }
    expect(b.body.catalog).toEqual(a.body.catalog);
  });
});

describe('GET /api/quote/new', () => {
  it('sets quantity from the customer\'s ledger devices', async () => {
    const res = await api.get<QuoteBody>('/api/quote/new?custId=cust-abc');
    expect(res.status).toBe(200);
    const q = res.body.quote;
    expect(q.id).toBeNull();
    expect(q.cust).toBe('ABC物流株式会社');
    const devices = (await api.get<{ devices: { cust: string }[] }>('/api/devices')).body.devices;
    const count = devices.filter((d) => d.cust === 'ABC物流株式会社').length;
    expect(count).toBeGreaterThan(0);
    expect(q.totals.deviceQty).toBe(count);
    expect(q.ini.some((l) => l.q === count)).toBe(true);
    expect(q.totals.volumeApplied).toBe(false);
    expectRelations(q.totals, q);
  });

  it('applies the volume discount from 1000 devices only', async () => {
    for (const devices of [0, 999, 1000, 3500, 5000]) {
      const q = (await api.get<QuoteBody>(`/api/quote/new?cust=${encodeURIComponent('新規顧客')}&devices=${devices}`)).body.quote;
      expectRelations(q.totals, q);
      expect(q.totals.deviceQty).toBe(devices);
      expect(q.totals.volumeApplied).toBe(devices >= 1000);
      expect(q.totals.iniDiscount > 0).toBe(devices >= 1000);
      expect(q.totals.perDevice).toBe(devices === 0 ? null : Math.floor(q.totals.y1 / devices));
    }
  });

  it('floors a negative devices override at 0 and ignores cust when custId is given', async () => {
    const q = (await api.get<QuoteBody>('/api/quote/new?cust=x&devices=-5')).body.quote;
    expect(q.totals.deviceQty).toBe(0);
    expect(q.totals.perDevice).toBeNull();
    const q2 = (await api.get<QuoteBody>('/api/quote/new?custId=cust-nsk&cust=other&devices=12.7')).body.quote;
    expect(q2.cust).toBe('日新産業建設株式会社');
    expect(q2.totals.deviceQty).toBe(12);
  });

  it('keeps a large devices override consistent with what a saved quote stores, or refuses it', async () => {
    const q = (await api.get<QuoteBody>('/api/quote/new?cust=x&devices=100000')).body.quote;
    expect(q.totals.deviceQty).toBe(100000);
    const saved = (await api.post<QuoteBody>('/api/quote/preview', { cust: 'x', qty: q.qty, ini: q.ini, run: q.run, totals: q.totals })).body;
    expect(saved.ok).toBe(true);
    for (const devices of ['100001', '1e20', 'abc']) {
      const r = await api.get<QuoteBody>(`/api/quote/new?cust=x&devices=${devices}`);
      expect(r.status, devices).toBe(400);
      expect(r.body.error).toBe('invalid devices');
    }
  });

  it('needs a customer (400 customer_required) that exists (404 customer_not_found)', async () => {
    const a = await api.get<QuoteBody>('/api/quote/new');
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ ok: false, error: 'customer_required' });
    expect(a.body.message).toBeTruthy();
    const b = await api.get<QuoteBody>('/api/quote/new?custId=cust-nope');
    expect(b.status).toBe(404);
    expect(b.body.error).toBe('customer_not_found');
  });
});

const lines = { ini: [{ n: 'キッティング', q: 10, p: 3000, d: '' }, { n: '管理費', q: 1, p: 55555, d: '' }], run: [{ n: '保守', q: 10, p: 505, d: '' }] };

describe('quote draft', () => {
  it('stores one normalised draft per workspace and returns it with totals', async () => {
    const c = server.client();
    expect((await c.get<{ draft: unknown }>('/api/quote/draft')).body.draft).toBeNull();
    const res = await c.post<{ ok: boolean; draft: Quote }>('/api/quote/draft', {
      custId: 'cust-abc', costRate: 40, ini: [{ n: 'x'.repeat(300), q: '3.9', p: 100.4, d: 5 }, { n: 'neg', q: -2, p: -10 }], run: [],
    });
    expect(res.status).toBe(200);
    const d = res.body.draft;
    expect(d.ini[0]).toEqual({ n: 'x'.repeat(200), q: 3, p: 100, d: '5' });
    expect(d.ini[1]).toMatchObject({ q: 0, p: 0 });
    expect(d.cust).toBe('ABC物流株式会社');
    expect(d.updatedAt).toBeGreaterThan(0);
    expect(d.totals.ini).toBe(300);
    await c.post('/api/quote/draft', { cust: '二回目', ...lines });
    const got = (await c.get<{ draft: Quote }>('/api/quote/draft')).body.draft;
    expect(got.cust).toBe('二回目');
    expectRelations(got.totals, got);
    // another workspace sees none
    expect((await server.client().get<{ draft: unknown }>('/api/quote/draft')).body.draft).toBeNull();
  });

  it('refuses totals that disagree and keeps the earlier draft', async () => {
    const c = server.client();
    await c.post('/api/quote/draft', { cust: '最初', ...lines });
    const bad = await c.post<QuoteBody>('/api/quote/draft', { cust: '改ざん', ...lines, totals: { ini: 1, y1: 999 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('quote_inconsistent');
    expect(bad.body.errors?.map((e) => e.field).sort()).toEqual(['ini', 'y1']);
    expect(bad.body.errors?.[0]?.code).toBe('figure_mismatch');
    expect((await c.get<{ draft: Quote }>('/api/quote/draft')).body.draft.cust).toBe('最初');
  });

  it('accepts totals that agree, recomputing the volume discount', async () => {
    const c = server.client();
    const body = { cust: 'A', qty: 1000, ini: [{ n: 'k', q: 1000, p: 3000, d: '' }], run: [] };
    const preview = (await c.post<QuoteBody>('/api/quote/preview', body)).body.quote.totals;
    expect(preview.iniDiscount).toBe(90000);
    const ok = await c.post<{ draft: Quote }>('/api/quote/draft', { ...body, totals: preview });
    expect(ok.status).toBe(200);
    expect(ok.body.draft.totals.volumeApplied).toBe(true);
  });

  it('clears idempotently', async () => {
    const c = server.client();
    await c.post('/api/quote/draft', { cust: 'x' });
    expect((await c.post('/api/quote/draft/clear')).body).toEqual({ ok: true });
    expect((await c.post('/api/quote/draft/clear')).body).toEqual({ ok: true });
    expect((await c.get<{ draft: unknown }>('/api/quote/draft')).body.draft).toBeNull();
  });
});

describe('POST /api/quote/preview', () => {
  it('returns quote, csv and document without storing anything', async () => {
    const c = server.client();
    const before = (await c.get<{ quotes: Quote[] }>('/api/quotes')).body.quotes.length;
    const res = await c.post<{ ok: boolean; quote: Quote; csv: string; document: { meta: { quoteNo: null } } }>('/api/quote/preview', { cust: 'P', ...lines });
    expect(res.status).toBe(200);
    expect(res.body.quote.id).toBeNull();
    expect(res.body.csv).toContain('見積番号');
    expect(res.body.document.meta.quoteNo).toBeNull();
    expect((await c.get<{ quotes: Quote[] }>('/api/quotes')).body.quotes).toHaveLength(before);
  });

  it('gives quote_inconsistent for an unknown custId', async () => {
    const res = await api.post<QuoteBody>('/api/quote/preview', { custId: 'cust-missing', ...lines });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'customer_unknown', field: 'custId' })]);
  });
});

describe('quotes CRUD', () => {
  it('creates with defaults and an id, lists and gets with totals', async () => {
    const c = server.client();
    const seeded = (await c.get<{ quotes: Quote[] }>('/api/quotes')).body.quotes;
    const res = await c.post<QuoteBody>('/api/quote', { ...lines, pattern: 'Z' });
    expect(res.status).toBe(200);
    const q = res.body.quote;
    expect(q.id).toMatch(/^Q-\d{4}-\d{3}$/);
    expect(q).toMatchObject({ cust: '御中', pattern: 'A', costRate: 45, signId: null, qty: 10 });
    expectRelations(q.totals, q);
    const list = (await c.get<{ quotes: Quote[] }>('/api/quotes')).body.quotes;
    expect(list.map((x) => x.id)).toEqual([q.id, ...seeded.map((x) => x.id)]);
    expect(seeded.every((x) => x.id !== q.id)).toBe(true);
    expect(list[0]?.totals.y1).toBe(q.totals.y1);
    expect((await c.get<QuoteBody>(`/api/quote/${q.id}`)).body.quote.totals).toEqual(q.totals);
    expect((await c.get<QuoteBody>('/api/quote/Q-none')).status).toBe(404);
  });

  it('updates a subset; costRate falls back when 0 or invalid; signId null clears', async () => {
    const c = server.client();
    const q = (await c.post<QuoteBody>('/api/quote', { ...lines, costRate: 50, signId: 'SG-1' })).body.quote;
    for (const bad of [0, 'abc', -3, 150]) {
      const r = await c.post<QuoteBody>(`/api/quote/${q.id}`, { costRate: bad });
      expect(r.body.quote.costRate).toBe(50);
    }
    const r = await c.post<QuoteBody>(`/api/quote/${q.id}`, { costRate: 30, cust: '更新後', signId: null });
    expect(r.body.quote).toMatchObject({ costRate: 30, cust: '更新後', signId: null });
    expect(r.body.quote.totals.gpRate).toBe(70);
    expect(r.body.quote.updatedAt).toBeGreaterThan(0);
    expect(r.body.quote.ini).toEqual(q.ini);
    expect((await c.post<QuoteBody>('/api/quote/Q-none', { cust: 'x' })).status).toBe(404);
  });

  it('refuses an update whose asserted totals disagree and stores nothing', async () => {
    const c = server.client();
    const q = (await c.post<QuoteBody>('/api/quote', { cust: '元', ...lines })).body.quote;
    const r = await c.post<QuoteBody>(`/api/quote/${q.id}`, { cust: '変更', totals: { gp: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('quote_inconsistent');
    expect((await c.get<QuoteBody>(`/api/quote/${q.id}`)).body.quote.cust).toBe('元');
  });

  it('refuses fields of the wrong type with 400 and stores nothing (no silent 御中 or 0)', async () => {
    const c = server.client();
    const before = (await c.get<{ quotes: Quote[] }>('/api/quotes')).body.quotes.length;
    const bad = [
      { cust: { name: 'x' }, ...lines },
      { cust: 'A', custId: ['cust-abc'], ...lines },
      { cust: 'A', signId: true, ...lines },
      { cust: 'A', ini: [{ n: { a: 1 }, q: 1, p: 100 }] },
      { cust: 'A', ini: [{ n: '作業', q: 'たくさん', p: 100 }] },
      { cust: 'A', run: [{ n: '保守', q: 1, p: [500] }] },
    ];
    for (const body of bad) {
      const r = await c.post<QuoteBody>('/api/quote', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.ok).toBe(false);
    }
    expect((await c.get<{ quotes: Quote[] }>('/api/quotes')).body.quotes.length).toBe(before);
    const q = (await c.post<QuoteBody>('/api/quote', { cust: '元', ...lines })).body.quote;
    expect((await c.post<QuoteBody>(`/api/quote/${q.id}`, { cust: { x: 1 } })).status).toBe(400);
    expect((await c.post<QuoteBody>('/api/quote/draft', { cust: 'A', ini: [{ n: 'x', q: {}, p: 1 }] })).status).toBe(400);
    expect((await c.get<{ draft: unknown }>('/api/quote/draft')).body.draft).toBeNull();
  });
});

describe('GET /api/quote/{id}/csv and /document', () => {
  it('exports UTF-8 CSV with BOM, the header rows, columns and summary block', async () => {
    const c = server.client();
    const q = (await c.post<QuoteBody>('/api/quote', { cust: 'ABC物流株式会社', custId: 'cust-abc', qty: 1000, ...lines })).body.quote;
    const res = await fetch(`${server.url}/api/quote/${q.id}/csv`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    expect(rows.slice(0, 6).map((r) => r.split(',')[0])).toEqual(['見積番号', '顧客名', '発行日', 'パターン', '数量(台)', 'ボリューム値引き']);
    expect(rows[0]).toBe(`見積番号,${q.id}`);
    expect(rows[4]).toBe('数量(台),1000');
    expect(rows[5]).toMatch(/^ボリューム値引き,適用 3%/);
    expect(rows).toContain('区分,項目,数量,単価,金額');
    expect(rows).toContain('初期費用,キッティング,10,3000,30000');
    expect(rows).toContain('区分,サマリー,金額');
    expect(rows).toContain(`初期費用,消費税（10%）,${q.totals.iniTax}`);
  });

  it('returns the document shape', async () => {
    const c = server.client();
    const q = (await c.post<QuoteBody>('/api/quote', { cust: 'D', ...lines })).body.quote;
    const res = await c.get<{ ok: boolean; document: { meta: Record<string, unknown>; sections: { key: string; rows: { amt: number }[] }[]; summary: unknown[]; totals: Totals } }>(`/api/quote/${q.id}/document`);
    expect(res.status).toBe(200);
    expect(res.body.document.meta).toMatchObject({ quoteNo: q.id, cust: 'D', custId: null, pattern: 'A', issued: false, issueDate: jstDate() });
    expect(res.body.document.sections.map((s) => s.key)).toEqual(['ini', 'run']);
    expect(res.body.document.sections[0]?.rows[0]?.amt).toBe(30000);
    expect(res.body.document.totals).toEqual(q.totals);
  });

  it('404s with not_found and refuses a quote whose customer vanished', async () => {
    const c = server.client();
    expect((await c.get('/api/quote/Q-none/csv')).body).toEqual({ ok: false, error: 'not_found', message: expect.any(String) });
    const cust = (await c.post<{ id: string }>('/api/customer', { name: '消える顧客' })).body.id;
    const q = (await c.post<QuoteBody>('/api/quote', { custId: cust, ...lines })).body.quote;
    await c.post(`/api/customer/${cust}/delete`);
    const r = await c.get<QuoteBody>(`/api/quote/${q.id}/csv`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('quote_inconsistent');
    expect((await c.get<QuoteBody>(`/api/quote/${q.id}/document`)).status).toBe(400);
  });
});

describe('POST /api/quote/{id}/issue', () => {
  it('stamps issuedAt once and keeps it on re-issue', async () => {
    const c = server.client();
    const q = (await c.post<QuoteBody>('/api/quote', { custId: 'cust-tkm', ...lines })).body.quote;
    expect(q.cust).toBe('東海メディカルサービス株式会社');
    const first = await c.post<{ ok: boolean; quote: Quote; document: { meta: { issued: boolean } }; csv: string }>(`/api/quote/${q.id}/issue`);
    expect(first.status).toBe(200);
    const at = first.body.quote.issuedAt;
    expect(typeof at).toBe('number');
    expect(first.body.document.meta.issued).toBe(true);
    expect(first.body.csv).toContain(`見積番号,${q.id}`);
    await new Promise((r) => setTimeout(r, 5));
    const again = await c.post<{ quote: Quote }>(`/api/quote/${q.id}/issue`);
    expect(again.body.quote.issuedAt).toBe(at);
    expect((await c.get<QuoteBody>(`/api/quote/${q.id}`)).body.quote.issuedAt).toBe(at);
  });

  it('needs a customer that exists', async () => {
    const c = server.client();
    const q = (await c.post<QuoteBody>('/api/quote', { cust: '未登録の会社', ...lines })).body.quote;
    const r = await c.post<QuoteBody>(`/api/quote/${q.id}/issue`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('quote_inconsistent');
    expect(r.body.errors).toEqual([expect.objectContaining({ code: 'customer_required', field: 'custId' })]);
    expect((await c.get<QuoteBody>(`/api/quote/${q.id}`)).body.quote.issuedAt).toBeNull();
    expect((await c.post('/api/quote/Q-none/issue')).status).toBe(404);
  });
});
