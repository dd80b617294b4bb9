import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceFigures } from '../../../../shared/invoice-tax';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { pdfPagesText } from '../certs/pdf-text';

interface RateTotal { rate: number; taxable: number; tax: number; total: number }
interface Invoice {
  id: string;
  amount: number;
  subtotal: number;
  tax: number;
  taxBasis: string;
  taxes: RateTotal[];
  lines: { description: string; quantity: number; unitPrice: number; taxRate: number }[];
  quoteId?: string;
  status: string;
}
type InvoiceBody = { ok: boolean; invoice: Invoice; error?: string; message?: string };

let server: TestServer;
let api: Client;
beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

const pdfText = async (c: Client, id: string) => {
  const res = await fetch(`${server.url}/api/invoice/${id}/pdf`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid')}` } });
  expect(res.status).toBe(200);
  return (await pdfPagesText(new Uint8Array(await res.arrayBuffer()))).join('\n');
};

describe('invoice tax per rate', () => {
  it('rounds the tax down once per invoice per rate, never per line (税抜)', () => {
    // Three lines of ¥333 at 10 %: per line 33 + 33 + 33 = 99, once per rate floor(999 × 0.1) = 99; ¥105 × 3 at 8 %: floor(315 × 0.08) = 25 (per line 8 × 3 = 24).
    const f = invoiceFigures(
      [
        { description: 'a', quantity: 1, unitPrice: 333, taxRate: 10 },
        { description: 'b', quantity: 1, unitPrice: 333, taxRate: 10 },
        { description: 'c', quantity: 1, unitPrice: 333, taxRate: 10 },
        { description: 'd', quantity: 3, unitPrice: 105, taxRate: 8 },
      ],
      '税抜',
    );
    expect(f.taxes).toEqual([
      { rate: 10, taxable: 999, tax: 99, total: 1098 },
      { rate: 8, taxable: 315, tax: 25, total: 340 },
    ]);
    expect(f).toMatchObject({ subtotal: 1314, tax: 124, total: 1438 });
  });

  it('takes the tax out of tax-included amounts per rate (税込)', () => {
    const f = invoiceFigures(
      [
        { description: 'a', quantity: 2, unitPrice: 1100, taxRate: 10 },
        { description: 'b', quantity: 1, unitPrice: 1080, taxRate: 8 },
        { description: 'c', quantity: 1, unitPrice: 999, taxRate: 10 },
      ],
      '税込',
    );
    // 10 %: 3199 incl. → tax floor(3199 × 10 / 110) = 290; 8 %: 1080 → 80.
    expect(f.taxes).toEqual([
      { rate: 10, taxable: 2909, tax: 290, total: 3199 },
      { rate: 8, taxable: 1000, tax: 80, total: 1080 },
    ]);
    expect(f.total).toBe(4279);
  });
});

describe('POST /api/invoice with lines', () => {
  it('stores lines with a 10 % default rate, per-rate totals and amount = the total; 税抜 by company default', async () => {
    const r = await api.post<InvoiceBody>('/api/invoice', {
      cust: 'ABC物流株式会社',
      month: '2611',
      lines: [
        { description: 'キッティング作業', quantity: 40, unitPrice: 3000 },
        { description: '会議用飲料', quantity: 10, unitPrice: 150, taxRate: 8 },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.invoice).toMatchObject({
      taxBasis: '税抜',
      subtotal: 121500,
      tax: 12120,
      amount: 133620,
      taxes: [
        { rate: 10, taxable: 120000, tax: 12000, total: 132000 },
        { rate: 8, taxable: 1500, tax: 120, total: 1620 },
      ],
    });
    expect(r.body.invoice.lines[0]).toEqual({ description: 'キッティング作業', quantity: 40, unitPrice: 3000, taxRate: 10 });
  });

  it('states amounts 税込 when the company says so; an invoice keeps the basis it was made with', async () => {
    const c = server.client();
    expect((await c.put<{ company: { taxBasis: string } }>('/api/settings/company', { taxBasis: '税込' })).body.company.taxBasis).toBe('税込');
    const inv = (await c.post<InvoiceBody>('/api/invoice', { cust: 'x', lines: [{ description: '作業', quantity: 1, unitPrice: 11000 }] })).body.invoice;
    expect(inv).toMatchObject({ taxBasis: '税込', amount: 11000, tax: 1000, subtotal: 10000 });
    await c.put('/api/settings/company', { taxBasis: '税抜' });
    const list = (await c.get<{ invoices: Invoice[] }>('/api/invoices')).body.invoices;
    expect(list.find((i) => i.id === inv.id)).toMatchObject({ taxBasis: '税込', amount: 11000 });
    expect((await c.put('/api/settings/company', { taxBasis: '内税' })).status).toBe(400);
  });

  it('an amount alone is one line of the total (税込 at 10 %); the amount keeps its meaning', async () => {
    const inv = (await api.post<InvoiceBody>('/api/invoice', { cust: 'x', amount: 334000, desc: '11月分 保守' })).body.invoice;
    expect(inv).toMatchObject({ amount: 334000, taxBasis: '税込', tax: 30363, subtotal: 303637 });
    expect(inv.lines).toEqual([{ description: '11月分 保守', quantity: 1, unitPrice: 334000, taxRate: 10 }]);
    const changed = (await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { amount: 110000 })).body.invoice;
    expect(changed).toMatchObject({ amount: 110000, tax: 10000 });
  });

  it('refuses bad lines, an unknown rate and an amount that disagrees with the lines, storing nothing', async () => {
    const c = server.client();
    const before = (await c.get<{ count: number }>('/api/invoices')).body.count;
    const cases: [Record<string, unknown>, string][] = [
      [{ cust: 'x', lines: 'a' }, 'invalid lines'],
      [{ cust: 'x', lines: [{ description: 'a', quantity: 1, unitPrice: 100, taxRate: 5 }] }, 'invalid lines'],
      [{ cust: 'x', lines: [{ description: 'a', quantity: -1, unitPrice: 100 }] }, 'invalid lines'],
      [{ cust: 'x', lines: [{ description: 'a', quantity: 1, unitPrice: 'abc' }] }, 'invalid lines'],
      [{ cust: 'x', lines: Array.from({ length: 201 }, () => ({ description: 'a', quantity: 1, unitPrice: 1 })) }, 'invalid lines'],
      [{ cust: 'x', lines: [{ description: '値引き', quantity: 1, unitPrice: -100 }] }, 'invalid lines'],
      [{ cust: 'x', amount: 100, lines: [{ description: 'a', quantity: 1, unitPrice: 100 }] }, 'invalid amount'],
      [{ cust: 'x', taxBasis: '外税', lines: [{ description: 'a', quantity: 1, unitPrice: 100 }] }, 'invalid taxBasis'],
    ];
    for (const [body, error] of cases) {
      const r = await c.post<InvoiceBody>('/api/invoice', body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error).toBe(error);
    }
    expect((await c.get<{ count: number }>('/api/invoices')).body.count).toBe(before);
  });

  it('a draft with lines is re-figured when its lines change; an amount alone cannot override them', async () => {
    const inv = (await api.post<InvoiceBody>('/api/invoice', { cust: 'x', lines: [{ description: 'a', quantity: 2, unitPrice: 500 }, { description: 'b', quantity: 1, unitPrice: 100, taxRate: 8 }] })).body.invoice;
    const r = await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { lines: [{ description: 'a', quantity: 3, unitPrice: 500 }] });
    expect(r.body.invoice).toMatchObject({ amount: 1650, tax: 150, taxes: [{ rate: 10, taxable: 1500, tax: 150, total: 1650 }] });
    expect((await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { amount: 1 })).body.error).toBe('invalid amount');
  });
});

describe('POST /api/quote/{id}/invoice', () => {
  it('makes a draft invoice from an issued quote with its lines, discount and per-rate tax', async () => {
    const c = server.client();
    const q = (
      await c.post<{ quote: { id: string } }>('/api/quote', {
        custId: 'cust-tkm',
        qty: 40,
        ini: [{ n: 'キッティング作業', q: 40, p: 3000, d: '' }],
        run: [{ n: '保守サポート', q: 40, p: 505, d: '' }],
      })
    ).body.quote;
    const early = await c.post<{ error: string }>(`/api/quote/${q.id}/invoice`, {});
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('quote not issued');
    await c.post(`/api/quote/${q.id}/issue`);
    const r = await c.post<InvoiceBody>(`/api/quote/${q.id}/invoice`, { due: '2026-12-31' });
    expect(r.status).toBe(200);
    expect(r.body.invoice).toMatchObject({ quoteId: q.id, status: 'draft', taxBasis: '税抜', subtotal: 140200, tax: 14020, amount: 154220 });
    expect(r.body.invoice.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.taxRate])).toEqual([
      ['キッティング作業', 40, 3000, 10],
      ['【月額】保守サポート', 40, 505, 10],
    ]);
    expect((await c.post('/api/quote/Q-none/invoice', {})).status).toBe(404);
  });
});

describe('GET /api/invoice/{id}/pdf as a qualified invoice', () => {
  it('prints issuer and registration number, per-rate taxable totals and tax, total, due date and bank in customer words', async () => {
    const c = server.client();
    await c.put('/api/settings/company', { name: '株式会社キッティングセンター', regno: 'T1234567890123', bank: '三井住友銀行 本店営業部 普通 1234567' });
    const inv = (
      await c.post<InvoiceBody>('/api/invoice', {
        cust: 'ABC物流株式会社',
        month: '2611',
        due: '2026/12/31',
        lines: [
          { description: 'キッティング作業', quantity: 40, unitPrice: 3000 },
          { description: '会議用飲料', quantity: 10, unitPrice: 150, taxRate: 8 },
        ],
      })
    ).body.invoice;
    await c.post('/api/invoices/issue', { month: '2611' });
    const text = await pdfText(c, inv.id);
    for (const s of [
      '請求書',
      inv.id,
      'ABC物流株式会社 御中',
      '株式会社キッティングセンター',
      '登録番号 T1234567890123',
      '10%対象（税抜）',
      '¥120,000',
      '消費税（10%）',
      '¥12,000',
      '8%対象（税抜）',
      '¥1,500',
      '消費税（8%）',
      '¥120',
      '合計（税込）',
      '¥133,620',
      '2026年12月31日',
      '三井住友銀行',
      '単発',
      '※印は軽減税率（8%）対象です。',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).toMatch(/発行日\s+\d{4}年\d{1,2}月\d{1,2}日/);
    for (const s of ['状態', '発行済', 'スポット', '2026/12/31', '2026-']) expect(text).not.toContain(s);
  });

  it('still renders an invoice stored before lines existed, its amount as the total with tax included', async () => {
    const text = await pdfText(api, 'INV-2606-001');
    for (const s of ['キッティング・保管・ヘルプデスク 月額', '¥420,000', '10%対象（税込）', 'うち消費税（10%）', '¥38,181', '2026年7月31日', '月額']) expect(text).toContain(s);
  });
});
