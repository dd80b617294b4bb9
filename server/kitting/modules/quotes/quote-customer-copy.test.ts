import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTE_PATTERN_LABELS } from '../../../../shared/api/contracts/quotes';
import { dateJa, jstDate } from '../../../../shared/dates';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { pdfPagesText } from '../certs/pdf-text';

interface Line { n: string; q: number; p: number }
interface Quote { id: string; qty: number; ini: Line[]; run: Line[]; issuedAt: number | null; subject?: string; validUntil?: string; totals: { iniTotal: number; deviceQty: number } }

let server: TestServer;
let api: Client;
beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

const pdfText = async (c: Client, id: string) => {
  const res = await fetch(`${server.url}/api/quote/${id}/pdf`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid')}` } });
  expect(res.status).toBe(200);
  return (await pdfPagesText(new Uint8Array(await res.arrayBuffer()))).join('\n');
};

describe('GET /api/quote/new quantity', () => {
  it('builds every per-device line from the typed devices count, not the ledger count', async () => {
    const ledger = (await api.get<{ quote: Quote }>('/api/quote/new?custId=cust-tkm')).body.quote;
    const typed = (await api.get<{ quote: Quote }>(`/api/quote/new?custId=cust-tkm&devices=${ledger.qty + 5}`)).body.quote;
    expect(typed.qty).toBe(ledger.qty + 5);
    expect(typed.totals.deviceQty).toBe(ledger.qty + 5);
    const perDevice = typed.ini.filter((l) => l.p < 100000);
    expect(perDevice.length).toBeGreaterThan(0);
    for (const l of perDevice) expect(l.q).toBe(ledger.qty + 5);
  });
});

describe('an issued quote is read-only', () => {
  it('refuses any change to lines, quantity or subject with 409 quote issued', async () => {
    const q = (await api.post<{ quote: Quote }>('/api/quote', { custId: 'cust-tkm', qty: 40, subject: '営業部 iPhone 入替', ini: [{ n: 'キッティング作業', q: 40, p: 3000 }], run: [] })).body.quote;
    await api.post(`/api/quote/${q.id}/issue`);
    for (const body of [{ ini: [{ n: 'キッティング作業', q: 99, p: 3000 }] }, { qty: 99 }, { subject: '別件' }]) {
      const r = await api.post<{ error: string }>(`/api/quote/${q.id}`, body);
      expect(r.status).toBe(409);
      expect(r.body.error).toBe('quote issued');
    }
    expect((await api.get<{ quote: Quote }>(`/api/quote/${q.id}`)).body.quote).toMatchObject({ qty: 40, subject: '営業部 iPhone 入替', ini: [{ q: 40 }] });
  });
});

describe('GET /api/quote/{id}/pdf customer copy', () => {
  it('prints 件名, 有効期限 30 days after issue, the large 御見積金額（税込） and the pattern by its name', async () => {
    const c = server.client();
    const q = (await c.post<{ quote: Quote }>('/api/quote', { custId: 'cust-tkm', pattern: 'A', qty: 40, subject: '営業部 iPhone 入替', ini: [{ n: 'キッティング作業', q: 40, p: 3000 }], run: [{ n: 'ヘルプデスク', q: 40, p: 500 }] })).body.quote;
    const issued = (await c.post<{ quote: Quote }>(`/api/quote/${q.id}/issue`)).body.quote;
    expect(issued.validUntil).toBe(jstDate((issued.issuedAt ?? 0) + 30 * 86_400_000));
    const text = await pdfText(c, q.id);
    for (const s of ['件名', '営業部 iPhone 入替', '有効期限', dateJa(issued.validUntil ?? ''), '御見積金額（税込）', '¥132,000', '月額費用 ¥22,000（税込）／月', QUOTE_PATTERN_LABELS.A]) expect(text).toContain(s);
    expect(text).not.toContain('契約形態');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('takes the validity from the company setting (quoteValidDays)', async () => {
    const c = server.client();
    expect((await c.put<{ company: { quoteValidDays: number } }>('/api/settings/company', { quoteValidDays: 14 })).body.company.quoteValidDays).toBe(14);
    expect((await c.put('/api/settings/company', { quoteValidDays: 0 })).status).toBe(400);
    const q = (await c.post<{ quote: Quote }>('/api/quote', { custId: 'cust-tkm', pattern: 'B', ini: [{ n: '作業', q: 1, p: 1000 }], run: [] })).body.quote;
    const issued = (await c.post<{ quote: Quote }>(`/api/quote/${q.id}/issue`)).body.quote;
    expect(issued.validUntil).toBe(jstDate((issued.issuedAt ?? 0) + 14 * 86_400_000));
    const text = await pdfText(c, q.id);
    expect(text).toContain(QUOTE_PATTERN_LABELS.B);
    expect(text).toContain('法人向け端末キッティング・運用サービス');
  });
});
