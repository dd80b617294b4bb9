import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign, compactVerify, createLocalJWKSet } from 'jose';
import { PDFDocument, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { registerKey, retireBenchKeys, signingKey, SIGNING_KEY_FILE } from './cert-keys';
import { signatureFingerprint, SIGNATURE_TYPE } from './cert-sign';
import { indexCert } from './cert-verify.service';
import { PLATFORM_WS } from '../platform-collections';
import { attachment, b64, fetchPdf, qrTexts, withAttachment } from './cert.testkit';
import { canonicalize } from './jcs';
import { pdfPagesText } from './pdf-text';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
interface Signed {
  cert: { no: string; revoked?: { reason: string; at: number } };
  signature: { alg: string; kid: string; jws: string };
  verifyUrl: string | null;
}
interface Answer {
  ok: boolean;
  status: string;
  reason?: string;
  synced?: boolean;
  certificate: { no: string; formerNo?: string; record: Record<string, unknown> } | null;
  issuer: { workspaceName: string | null; bench: string | null; kid: string } | null;
  issuedAt: string | null;
  revoked?: { reason: string; at: string };
}

let server: TestServer;
let api: Client;
let ws: string;
const PUBLIC = 'https://verify.kitting.example.jp';
const priorPublic = process.env.KITTING_PUBLIC_URL;

beforeAll(async () => {
  process.env.KITTING_PUBLIC_URL = `${PUBLIC}/`;
  server = await startTestServer({ mode: 'central' });
  api = server.client();
  await api.get('/api/devices');
  ws = api.workspaceId() as string;
});
afterAll(async () => {
  if (priorPublic === undefined) delete process.env.KITTING_PUBLIC_URL;
  else process.env.KITTING_PUBLIC_URL = priorPublic;
  await server.close();
});

const devices = (n: number) => Array.from({ length: n }, (_, i) => ({ model: 'iPhone 15', id: `35693803564${String(3800 + i).padStart(4, '0')}`, storage: '128GB' }));
const digestOf = (record: unknown) => createHash('sha256').update(canonicalize(record)).digest('base64url');

async function issue(body: Record<string, unknown>): Promise<Signed> {
  const made = await api.post<{ cert: { no: string } }>('/api/cert', body);
  expect(made.status, made.text).toBe(200);
  const got = await api.get<Signed>(`/api/cert/${made.body.cert.no}`);
  expect(got.status).toBe(200);
  return got.body;
}

const payload = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
const verify = (body: unknown) => server.client().post<Answer>('/api/public/verify', body);

describe('GET /api/cert/{no}: the signature', () => {
  it('signs the canonical record (RFC 8785) with EdDSA under a published key; verifyUrl carries its digest', async () => {
    const s = await issue({
      cust: 'ABC物流株式会社',
      methodKey: 'purge',
      date: '2026-11-20',
      devices: devices(2),
      operator: '高橋 美咲',
      tool: 'Kitting Wipe',
      toolVersion: '3.2.1',
      verifyMethod: '全領域読み取り検査',
      verifyResult: '合格',
    });
    expect(s.signature.alg).toBe('EdDSA');
    const record = payload(s.signature.jws);
    expect(record).toMatchObject({
      ws,
      no: s.cert.no,
      date: '2026-11-20',
      customer: 'ABC物流株式会社',
      count: 2,
      method: { category: 'Purge', technique: '暗号化消去', key: 'purge' },
      tool: { name: 'Kitting Wipe', version: '3.2.1' },
      verification: { method: '全領域読み取り検査', result: '合格' },
      operator: '高橋 美咲',
      // never invented: what the request did not give stays null
      validator: null,
      site: null,
    });
    expect((record.devices as unknown[])[0]).toEqual({ imei: '356938035643800', serial: null, model: 'iPhone 15', storage: '128GB' });
    // The payload is exactly the canonical form of the record.
    expect(Buffer.from(s.signature.jws.split('.')[1], 'base64url').toString('utf8')).toBe(canonicalize(record));
    expect(s.verifyUrl).toBe(`${PUBLIC}/verify/${s.cert.no}?d=${digestOf(record)}`);

    const jwks = await server.client().get<{ keys: { kid: string; alg: string; x: string; d?: string }[] }>(`/api/public/cert-keys?ws=${ws}`);
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys.map((k) => k.kid)).toContain(s.signature.kid);
    expect(jwks.body.keys.every((k) => k.d === undefined)).toBe(true);
    const { payload: bytes } = await compactVerify(s.signature.jws, createLocalJWKSet({ keys: jwks.body.keys as never }));
    expect(new TextDecoder().decode(bytes)).toBe(canonicalize(record));
  });

  it('keeps the private key in the data folder, readable by its owner only', async () => {
    const st = statSync(join(server.dataDir, SIGNING_KEY_FILE));
    expect(st.mode & 0o777).toBe(0o600);
  });

  it('answers a workspace with no keys with an empty set', async () => {
    const res = await server.client().get<{ keys: unknown[] }>('/api/public/cert-keys?ws=nobody-here');
    expect(res.body.keys).toEqual([]);
  });
});

describe('GET /api/public/verify', () => {
  it('answers valid for a genuine certificate, mismatch for another digest of its number, unknown for neither', async () => {
    const s = await issue({ cust: 'B社', devices: devices(1) });
    const d = digestOf(payload(s.signature.jws));
    const c = server.client();
    const ok = await c.get<Answer>(`/api/public/verify?no=${s.cert.no}&d=${d}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, status: 'valid', synced: true, issuer: { kid: s.signature.kid }, certificate: { no: s.cert.no } });
    expect(ok.body.certificate?.record.customer).toBe('B社');
    const other = `${d.slice(0, -2)}${d.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await c.get<Answer>(`/api/public/verify?no=${s.cert.no}&d=${other}`)).body.status).toBe('mismatch');
    expect((await c.get<Answer>(`/api/public/verify?no=KIT-ERZ-1999-0001&d=${other}`)).body.status).toBe('unknown');
    expect((await c.get<Answer>(`/api/public/verify?no=${s.cert.no}&d=short`)).status).toBe(400);
  });

  it('shows the answer on the verification page in Japanese and English', async () => {
    const s = await issue({ cust: 'C社', devices: devices(1) });
    const res = await fetch(`${server.url}/verify/${s.cert.no}?d=${digestOf(payload(s.signature.jws))}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain('この証明書は有効です');
    expect(html).toContain('This certificate is genuine and valid');
    expect(html).toContain('C社');
    const bad = await (await fetch(`${server.url}/verify/${s.cert.no}?d=${'A'.repeat(43)}`)).text();
    expect(bad).toContain('内容が一致しません');
  });
});

describe('the certificate PDF', () => {
  it('attaches certificate.json, prints a QR code of verifyUrl, the URL, the key id and the signature fingerprint, on one A4 page for 20 devices', async () => {
    const s = await issue({ cust: '株式会社サンプル商事', devices: devices(20), operator: '佐藤 健' });
    const pdf = await fetchPdf(server, api, s.cert.no);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    const a = await attachment(pdf);
    expect(a).toEqual({ record: payload(s.signature.jws), jws: s.signature.jws, kid: s.signature.kid });
    expect(await qrTexts(pdf)).toEqual([s.verifyUrl]);
    const text = (await pdfPagesText(pdf)).join('\n');
    expect(text).toContain(String(s.verifyUrl));
    expect(text).toContain(s.signature.kid);
    expect(text).toContain(signatureFingerprint(s.signature.jws));
    expect(text).toContain('356938035643819');
  });

  it('verifies as uploaded through POST /api/public/verify', async () => {
    const s = await issue({ cust: 'D社', devices: devices(3) });
    const res = await verify({ file: b64(await fetchPdf(server, api, s.cert.no)) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'valid', synced: true, certificate: { no: s.cert.no } });
  });
});

describe('tampering is caught', () => {
  let s: Signed;
  let pdf: Uint8Array;
  let a: { record: Record<string, unknown>; jws: string; kid: string };
  beforeAll(async () => {
    s = await issue({ cust: 'E社', date: '2026-10-01', devices: devices(2) });
    pdf = await fetchPdf(server, api, s.cert.no);
    a = await attachment(pdf);
  });

  it('a genuine attachment sent as {record, jws, kid} verifies', async () => {
    expect((await verify(a)).body.status).toBe('valid');
  });

  for (const [what, edit] of [
    ['a changed IMEI', (r: Record<string, unknown>) => ({ ...r, devices: [{ ...(r.devices as Record<string, unknown>[])[0], imei: '356938035649999' }, (r.devices as unknown[])[1]] })],
    ['a changed customer', (r: Record<string, unknown>) => ({ ...r, customer: 'F社' })],
    ['a changed date', (r: Record<string, unknown>) => ({ ...r, date: '2026-12-01' })],
  ] as const) {
    it(`${what} in the attachment of the PDF`, async () => {
      const forged = await withAttachment(pdf, { ...a, record: edit(a.record) });
      const res = await verify({ file: b64(forged) });
      expect(res.body).toMatchObject({ status: 'mismatch', reason: 'record_differs' });
      expect((await verify({ ...a, record: edit(a.record) })).body.status).toBe('mismatch');
    });
  }

  it('a record re-signed nowhere: its payload edited and the signature kept', async () => {
    const parts = a.jws.split('.');
    const body = Buffer.from(canonicalize({ ...a.record, customer: 'F社' })).toString('base64url');
    const res = await verify({ record: { ...a.record, customer: 'F社' }, jws: `${parts[0]}.${body}.${parts[2]}`, kid: a.kid });
    expect(res.body).toMatchObject({ status: 'mismatch', reason: 'signature_invalid' });
  });

  it('a swapped attachment (another genuine certificate attached to this print)', async () => {
    const other = await issue({ cust: 'G社', devices: devices(1) });
    const otherProof = await attachment(await fetchPdf(server, api, other.cert.no));
    const res = await verify({ file: b64(await withAttachment(pdf, otherProof)) });
    expect(res.body.status).toBe('mismatch');
    expect(String(res.body.reason)).toMatch(/^printed_/);
  });

  it('a PDF edited after signing (drawn over and saved again, or updated incrementally)', async () => {
    const doc = await PDFDocument.load(pdf);
    const page = doc.getPages()[0];
    page.drawRectangle({ x: 270, y: 300, width: 180, height: 14, color: rgb(1, 1, 1) });
    page.drawText('356938035649999', { x: 280, y: 303, size: 9 });
    const edited = await doc.save();
    expect((await verify({ file: b64(edited) })).body).toMatchObject({ status: 'mismatch', reason: 'pdf_page_edited' });
    const appended = Buffer.concat([Buffer.from(pdf), Buffer.from('\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')]);
    expect((await verify({ file: b64(appended) })).body).toMatchObject({ status: 'mismatch', reason: 'pdf_updated' });
  });

  it("a signature by another workspace's key", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cert-other-'));
    try {
      const other = await signingKey(dir);
      await registerKey(server.ctx, 'other-workspace', other.kid, other.publicJwk, 'bench-other');
      const record = { ...a.record, no: 'KIT-ERZ-2026-9999' };
      const jws = await new CompactSign(new TextEncoder().encode(canonicalize(record))).setProtectedHeader({ alg: 'EdDSA', kid: other.kid, typ: SIGNATURE_TYPE }).sign(other.privateKey);
      expect((await verify({ record, jws, kid: other.kid })).body).toMatchObject({ status: 'mismatch', reason: 'unknown_key' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a retired key's forged new certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cert-retired-'));
    try {
      const key = await signingKey(dir);
      await registerKey(server.ctx, ws, key.kid, key.publicJwk, 'bench-stolen');
      await retireBenchKeys(server.ctx, ws, 'bench-stolen');
      const jwks = await server.client().get<{ keys: { kid: string; retired?: boolean; retiredAt?: string }[] }>(`/api/public/cert-keys?ws=${ws}`);
      expect(jwks.body.keys.find((k) => k.kid === key.kid)).toMatchObject({ retired: true });
      for (const issuedAt of [new Date().toISOString(), '2020-01-01T00:00:00.000Z']) {
        const record = { ...a.record, no: 'KIT-ERZ-2026-8888', issuedAt };
        const jws = await new CompactSign(new TextEncoder().encode(canonicalize(record))).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: SIGNATURE_TYPE }).sign(key.privateKey);
        expect((await verify({ record, jws, kid: key.kid })).body).toMatchObject({ status: 'mismatch', reason: 'key_retired' });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("another workspace cannot take a genuine certificate's digest in the index", async () => {
    // Workspace B pushes a certificate naming the digest of A's next certificate, with its own genuine signature.
    const b = server.client();
    await b.get('/api/devices');
    const bWs = b.workspaceId() as string;
    const made = await b.post<{ cert: { no: string } }>('/api/cert', { cust: 'B側', devices: devices(1) });
    const bCert = (await server.store.get(bWs, 'erasureCerts', made.body.cert.no)) as Record<string, unknown>;
    const victim = await issue({ cust: 'A側', devices: devices(1) });
    const d = digestOf(payload(victim.signature.jws));
    // As if A's certificate had not reached central yet: B's push comes first, A's after.
    await server.store.transact(PLATFORM_WS, (tx) => tx.remove('certDigests', d));
    await indexCert(server.ctx, bWs, { ...bCert, no: victim.cert.no, recordDigest: d });
    await indexCert(server.ctx, ws, (await server.store.get(ws, 'erasureCerts', victim.cert.no)) as Record<string, unknown>);
    const ans = await server.client().get<Answer>(`/api/public/verify?no=${victim.cert.no}&d=${d}`);
    expect(ans.body).toMatchObject({ status: 'valid', certificate: { no: victim.cert.no } });
  });

  it('a PDF without certificate.json', async () => {
    const plain = await (await PDFDocument.create()).save();
    expect((await verify({ file: b64(plain) })).body).toMatchObject({ status: 'mismatch', reason: 'no_signature' });
    expect((await verify({ file: 'bm90IGEgcGRm' })).body).toMatchObject({ status: 'mismatch', reason: 'not_a_pdf' });
    expect((await verify({ nothing: true })).status).toBe(400);
  });
});

describe('POST /api/cert/{no}/revoke', () => {
  it('revokes with a reason; the certificate stays readable and verification answers revoked with reason and date', async () => {
    const s = await issue({ cust: 'H社', devices: devices(1) });
    expect((await api.post<Body>(`/api/cert/${s.cert.no}/revoke`, {})).status).toBe(400);
    const res = await api.post<{ cert: { revoked: { reason: string; at: number } } }>(`/api/cert/${s.cert.no}/revoke`, { reason: '対象機器の記載誤り' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.cert.revoked.reason).toBe('対象機器の記載誤り');
    expect((await api.get<Signed>(`/api/cert/${s.cert.no}`)).body.cert.revoked?.reason).toBe('対象機器の記載誤り');
    const ans = await server.client().get<Answer>(`/api/public/verify?no=${s.cert.no}&d=${digestOf(payload(s.signature.jws))}`);
    expect(ans.body).toMatchObject({ status: 'revoked', revoked: { reason: '対象機器の記載誤り' } });
    expect(Date.parse(String(ans.body.revoked?.at))).toBeGreaterThan(0);
    expect((await verify({ file: b64(await fetchPdf(server, api, s.cert.no)) })).body.status).toBe('revoked');
    expect((await api.post<Body>(`/api/cert/${s.cert.no}/revoke`, { reason: 'もう一度' })).status).toBe(409);
    expect((await api.post<Body>('/api/cert/KIT-ERZ-1999-0001/revoke', { reason: 'x' })).status).toBe(404);
  });

  it('is refused to a browser of another workspace (404: not its certificate)', async () => {
    const s = await issue({ cust: 'I社', devices: devices(1) });
    const stranger = server.client();
    expect((await stranger.post<Body>(`/api/cert/${s.cert.no}/revoke`, { reason: 'いたずら' })).status).toBe(404);
  });
});
