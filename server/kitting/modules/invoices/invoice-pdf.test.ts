import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { pdfFonts } from '../certs/pdf-fonts.testkit';
import { pdfPagesText } from '../certs/pdf-text';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /api/invoice/{id}/pdf', () => {
  it('renders 請求書 with customer, period, amount and Japanese status in the embedded font', async () => {
    const c = server.client();
    const inv = (await c.post<{ invoice: { id: string } }>('/api/invoice', { cust: 'ABC物流株式会社', month: '2611', desc: '端末キッティング 40台', amount: 123456, due: '2026-12-31' })).body.invoice;
    const res = await fetch(`${server.url}/api/invoice/${inv.id}/pdf`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = (await pdfPagesText(bytes)).join('\n');
    for (const s of ['請求書', inv.id, 'ABC物流株式会社 御中', '2026年11月分', '端末キッティング 40台', '¥123,456', '下書き']) expect(text).toContain(s);
    expect(text).not.toContain('draft');
    const fonts = await pdfFonts(bytes);
    expect(fonts[0]?.baseFont).toMatch(/NotoSansJP/);
    const missing = await fetch(`${server.url}/api/invoice/INV-0000-000/pdf`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid')}` } });
    expect(missing.status).toBe(404);
  });
});
