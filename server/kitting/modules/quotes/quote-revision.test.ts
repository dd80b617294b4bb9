import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { pdfFonts } from '../certs/pdf-fonts.testkit';
import { pdfPagesText } from '../certs/pdf-text';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Quote {
  id: string;
  cust: string;
  issuedAt: number | null;
  rev?: number;
  revisionOf?: string;
  supersededBy?: string;
  ini: { n: string; q: number; p: number }[];
}
const lines = { ini: [{ n: 'キッティング作業', q: 10, p: 3000, d: '' }], run: [{ n: '保守サポート', q: 10, p: 505, d: '' }] };

async function pdf(c: ReturnType<TestServer['client']>, path: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await fetch(`${server.url}${path}`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid')}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('issued quotes are locked', () => {
  it('refuses edits of an issued quote with 409 and keeps it unchanged; a revision is a new editable quote', async () => {
    const c = server.client();
    const q = (await c.post<{ quote: Quote }>('/api/quote', { custId: 'cust-tkm', ...lines })).body.quote;
    expect((await c.post(`/api/quote/${q.id}`, { ini: [{ n: '変更前に編集', q: 1, p: 1 }] })).status).toBe(200);
    await c.post(`/api/quote/${q.id}/issue`);
    const edit = await c.post<{ error: string; message: string }>(`/api/quote/${q.id}`, { ini: [{ n: '発行後の改ざん', q: 1, p: 999999 }] });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe('quote issued');
    expect(edit.body.message).toContain('改訂版');
    expect((await c.get<{ quote: Quote }>(`/api/quote/${q.id}`)).body.quote.ini[0]?.n).toBe('変更前に編集');

    const rev = await c.post<{ quote: Quote }>(`/api/quote/${q.id}/revise`);
    expect(rev.status).toBe(200);
    expect(rev.body.quote).toMatchObject({ revisionOf: q.id, rev: 2, issuedAt: null, cust: '東海メディカルサービス株式会社' });
    expect(rev.body.quote.id).not.toBe(q.id);
    expect((await c.post(`/api/quote/${rev.body.quote.id}`, { ini: [{ n: '改訂版の明細', q: 2, p: 5000 }] })).status).toBe(200);
    expect((await c.get<{ quote: Quote }>(`/api/quote/${q.id}`)).body.quote.supersededBy).toBe(rev.body.quote.id);
    // A revision of the revision still points at the original, numbered 3.
    await c.post(`/api/quote/${rev.body.quote.id}/issue`);
    const third = await c.post<{ quote: Quote }>(`/api/quote/${rev.body.quote.id}/revise`);
    expect(third.body.quote).toMatchObject({ revisionOf: q.id, rev: 3 });
  });

  it('revise answers 400 for an unissued quote and 404 for an unknown one', async () => {
    const c = server.client();
    const q = (await c.post<{ quote: Quote }>('/api/quote', { custId: 'cust-tkm', ...lines })).body.quote;
    expect((await c.post(`/api/quote/${q.id}/revise`)).status).toBe(400);
    expect((await c.post('/api/quote/Q-none/revise')).status).toBe(404);
  });
});

describe('GET /api/quote/{id}/pdf', () => {
  it('renders 御見積書 with customer, lines and totals in the embedded Japanese font', async () => {
    const c = server.client();
    const q = (await c.post<{ quote: Quote }>('/api/quote', { custId: 'cust-tkm', ...lines })).body.quote;
    await c.post(`/api/quote/${q.id}/issue`);
    const res = await pdf(c, `/api/quote/${q.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.type).toContain('application/pdf');
    const text = (await pdfPagesText(res.bytes)).join('\n');
    for (const s of ['御見積書', q.id, '東海メディカルサービス株式会社 御中', 'キッティング作業', '保守サポート', '¥30,000', '初年度合計']) expect(text).toContain(s);
    const fonts = await pdfFonts(res.bytes);
    expect(fonts).toHaveLength(1);
    expect(fonts[0]?.baseFont).toMatch(/NotoSansJP/);
    expect(fonts[0]?.embeddedBytes).toBeGreaterThan(1000);
    expect((await pdf(c, '/api/quote/Q-none/pdf')).status).toBe(404);
  });
});
