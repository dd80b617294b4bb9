import { createHash } from 'node:crypto';
import fontkit from 'fontkit';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate, jstYear } from '../../../../shared/dates';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { pdfFonts } from './pdf-fonts.testkit';
import { pdfPagesText } from './pdf-text';

interface Cert {
  no: string;
  date: string;
  cust: string;
  count: number;
  methodKey: string;
  method: string;
  nist: string;
  devices: { model: string; id: string; storage: string }[];
  operator: string;
  issuer: { name: string; regno: string };
  digest: string;
  issuedAt: number;
}
type CertBody = { ok: boolean; cert: Cert; error?: string };

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

async function fetchPdf(client: Client, no: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await fetch(`${server.url}/api/cert/${encodeURIComponent(no)}/pdf`, { headers: { cookie: `kit_tid=${client.cookie('kit_tid')}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

const devices = [
  { model: 'iPhone 15', id: '356938035643809', storage: '128GB' },
  { model: 'Galaxy A55', id: '490154203237518', storage: '256GB' },
];

describe('POST /api/cert', () => {
  it('numbers certificates KIT-ERZ-<year>-<NNNN> from a counter and never reuses a number', async () => {
    const year = jstYear();
    const a = await api.post<CertBody>('/api/cert', { cust: '株式会社サンプル', methodKey: 'purge', date: '2025-04-01', devices });
    const b = await api.post<CertBody>('/api/cert', { cust: '株式会社サンプル', methodKey: 'clear', count: 3 });
    expect(a.status).toBe(200);
    expect(a.body.cert.no).toMatch(new RegExp(`^KIT-ERZ-${year}-\\d{4}$`));
    expect(Number(b.body.cert.no.slice(-4))).toBe(Number(a.body.cert.no.slice(-4)) + 1);
  });

  it('labels each method per NIST SP 800-88', async () => {
    const cases = [
      ['purge', '暗号化消去', 'Purge'],
      ['clear', '論理消去', 'Clear'],
      ['destroy', '物理破壊', 'Destroy'],
    ];
    for (const [methodKey, method, nist] of cases) {
      const res = await api.post<CertBody>('/api/cert', { cust: 'A社', methodKey, count: 1 });
      expect(res.body.cert).toMatchObject({ methodKey, method, nist });
    }
  });

  it('stores date, count from devices, the issuing company and a SHA-256 digest', async () => {
    const res = await api.post<CertBody>('/api/cert', { cust: 'B社', date: '2025-05-20', devices, operator: '佐藤 健一' });
    const c = res.body.cert;
    expect(c).toMatchObject({ date: '2025-05-20', cust: 'B社', count: 2, methodKey: 'purge', operator: '佐藤 健一', devices });
    expect(c.issuer.name).toBe('株式会社キッティングステーション');
    expect(c.digest).toMatch(/^[0-9a-f]{64}$/);
    const today = await api.post<CertBody>('/api/cert', { cust: 'B社', count: 1 });
    expect(today.body.cert.date).toBe(jstDate());
  });

  it('refuses bad input with 400 and issues no number', async () => {
    const before = (await api.get<{ certs: Cert[] }>('/api/certs')).body.certs.length;
    const bad: [unknown, string][] = [
      [{ methodKey: 'purge', count: 1 }, 'cust required'],
      [{ cust: 'X', methodKey: 'shred', count: 1 }, 'invalid methodKey'],
      [{ cust: 'X', date: '2025-13-01', count: 1 }, 'invalid date'],
      [{ cust: 'X' }, 'count required'],
      [{ cust: 'X', count: 0 }, 'invalid count'],
      [{ cust: 'X', count: 1, devices }, 'count mismatch'],
      [{ cust: 'X', devices: 'many' }, 'invalid request'],
    ];
    for (const [body, error] of bad) {
      const res = await api.post('/api/cert', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ok: false, error });
    }
    expect((await api.get<{ certs: Cert[] }>('/api/certs')).body.certs.length).toBe(before);
  });
});

describe('GET /api/certs and /api/erasure/certs', () => {
  it('lists certificates newest first on both paths', async () => {
    const other = server.client();
    const first = (await other.post<CertBody>('/api/cert', { cust: 'C社', count: 1 })).body.cert;
    const second = (await other.post<CertBody>('/api/cert', { cust: 'C社', count: 1 })).body.cert;
    for (const path of ['/api/certs', '/api/erasure/certs']) {
      const res = await other.get<{ ok: boolean; certs: Cert[] }>(path);
      expect(res.body.ok).toBe(true);
      expect(res.body.certs.map((c) => c.no)).toEqual([second.no, first.no]);
    }
  });
});

describe('GET /api/cert/{no}', () => {
  it('answers the stored certificate and 404 for an unknown number', async () => {
    const c = (await api.post<CertBody>('/api/cert', { cust: 'D社', count: 1 })).body.cert;
    expect((await api.get<CertBody>(`/api/cert/${c.no}`)).body.cert).toEqual(c);
    const res = await api.get('/api/cert/KIT-ERZ-1999-9999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ok: false, error: 'cert not found' });
  });

  it('has no update route: issued certificates are immutable', async () => {
    const c = (await api.post<CertBody>('/api/cert', { cust: 'E社', count: 1 })).body.cert;
    const res = await api.post(`/api/cert/${c.no}`, { cust: '改ざん' });
    expect(res.status).toBe(404);
    expect((await api.get<CertBody>(`/api/cert/${c.no}`)).body.cert.cust).toBe('E社');
  });
});

describe('GET /api/cert/{no}/pdf', () => {
  it('renders a PDF with the number, customer, method, devices, issuer and digest printed', async () => {
    const c = (await api.post<CertBody>('/api/cert', { cust: '株式会社サンプル商事', methodKey: 'destroy', date: '2025-06-02', devices, operator: '高橋 美咲' })).body.cert;
    const pdf = await fetchPdf(api, c.no);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const doc = await PDFDocument.load(pdf.bytes);
    expect(doc.getPageCount()).toBe(1);
    const text = (await pdfPagesText(pdf.bytes)).join('\n');
    for (const s of [c.no, c.digest, '株式会社サンプル商事 御中', 'データ消去証明書', '物理破壊', 'NIST SP 800-88: Destroy', '2025-06-02', 'iPhone 15', '356938035643809', '256GB', '高橋 美咲', '株式会社キッティングステーション', 'T1010401089234']) {
      expect(text).toContain(s);
    }
  });

  it('embeds a Japanese font as a subset', async () => {
    const c = (await api.post<CertBody>('/api/cert', { cust: '日本語顧客', count: 1 })).body.cert;
    const fonts = await pdfFonts((await fetchPdf(api, c.no)).bytes);
    expect(fonts).toHaveLength(1);
    expect(fonts[0].baseFont).toMatch(/NotoSansJP/);
    // embedded, and only the glyphs used: far below the 5.4 MB of the whole font
    expect(fonts[0].embeddedBytes).toBeGreaterThan(1000);
    expect(fonts[0].embeddedBytes).toBeLessThan(500_000);
  });

  it('keeps every glyph of the subset intact (no blank characters in print)', async () => {
    const c = (await api.post<CertBody>('/api/cert', { cust: '株式会社サンプル商事', count: 1 })).body.cert;
    const [font] = await pdfFonts((await fetchPdf(api, c.no)).bytes);
    const subset = fontkit.create(Buffer.from(font.program ?? new Uint8Array()));
    let drawn = 0;
    // glyph 0 is .notdef; the space glyph is the only one allowed to be empty
    for (let gid = 1; gid < subset.numGlyphs; gid++) if (subset.getGlyph(gid).path.commands.length > 0) drawn++;
    expect(subset.numGlyphs).toBeGreaterThan(60);
    expect(drawn).toBeGreaterThanOrEqual(subset.numGlyphs - 2);
  });

  it('prints a digest that is the SHA-256 of the certificate data', async () => {
    const c = (await api.post<CertBody>('/api/cert', { cust: 'F社', methodKey: 'clear', date: '2025-07-01', devices: devices.slice(0, 1) })).body.cert;
    const canonical = {
      no: c.no,
      date: c.date,
      cust: c.cust,
      count: c.count,
      methodKey: c.methodKey,
      method: c.method,
      nist: c.nist,
      devices: c.devices,
      operator: c.operator,
      issuer: c.issuer,
      issuedAt: c.issuedAt,
    };
    expect(createHash('sha256').update(JSON.stringify(canonical)).digest('hex')).toBe(c.digest);
  });

  it('continues the device table on further pages', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ model: 'iPad Air', id: `SN${String(i).padStart(6, '0')}`, storage: '64GB' }));
    const c = (await api.post<CertBody>('/api/cert', { cust: 'G社', devices: many })).body.cert;
    const pdf = await fetchPdf(api, c.no);
    const pages = await pdfPagesText(pdf.bytes);
    expect(pages.length).toBeGreaterThan(1);
    const all = pages.join('\n');
    expect(all).toContain('SN000000');
    expect(all).toContain('SN000119');
    expect(pages[pages.length - 1]).toContain(c.digest);
  });

  it('answers 404 for an unknown number', async () => {
    expect((await fetchPdf(api, 'KIT-ERZ-1999-0001')).status).toBe(404);
  });
});

describe('GET /api/cert/{no} after a renumbering at enrolment', () => {
  it('leads a former number to the renumbered certificate and lists it beside a current holder', async () => {
    const srv = await startTestServer();
    const c = srv.client();
    const issued = await c.post<{ cert: { no: string } }>('/api/cert', { cust: 'ABC物流株式会社', methodKey: 'purge', devices: [{ model: 'iPhone 15', id: '356143920693759', storage: '128GB' }] });
    const ws = c.workspaceId() as string;
    const no = issued.body.cert.no;
    const renamed = no.replace(/\d{4}$/, '9001');
    await srv.store.transact(ws, async (tx) => {
      const cert = await tx.get('erasureCerts', no);
      await tx.put('erasureCerts', renamed, { ...cert, no: renamed, formerNo: 'KIT-ERZ-1999-0001' });
    });
    const byFormer = await c.get<{ cert: { no: string }; renumbered: { no: string; formerNo: string }[] }>('/api/cert/KIT-ERZ-1999-0001');
    expect(byFormer.status).toBe(200);
    expect(byFormer.body.cert.no).toBe(renamed);
    expect(byFormer.body.renumbered).toEqual([{ no: renamed, formerNo: 'KIT-ERZ-1999-0001' }]);
    expect((await c.get<{ renumbered?: unknown }>(`/api/cert/${no}`)).body.renumbered).toBeUndefined();
    expect((await c.get('/api/cert/KIT-ERZ-1999-0002')).status).toBe(404);
    await srv.close();
  });
});
