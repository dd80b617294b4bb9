import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';
import { SIGNING_KEY_FILE } from '../modules/certs/cert-keys';
import { takeBackup } from '../modules/backups/backups.service';
import { b64, fetchPdf, jwsDigest, jwsPayload } from '../modules/certs/cert.testkit';
import { canonicalize } from '../modules/certs/jcs';
import { PLATFORM_WS } from '../modules/platform-collections';
import { runVerify } from '../modules/certs/verify-run';

/**
 * Certificates a bench signs: standalone, after enrolment with central down, and what central answers
 * before and after the bench syncs; the bench's private key never leaves its data folder.
 */
type Body = Record<string, unknown> & { ok: boolean; error?: string };
interface Signed {
  cert: { no: string; formerNo?: string };
  signature: { kid: string; jws: string };
  verifyUrl: string | null;
}
interface Answer {
  status: string;
  synced?: boolean;
  reason?: string;
  certificate: { no: string; formerNo?: string } | null;
  issuer: { bench: string | null; kid: string } | null;
  revoked?: { reason: string };
}

const PUBLIC = 'https://kitting.example.jp';
const priorPublic = process.env.KITTING_PUBLIC_URL;
let central: TestServer;
let bench: TestServer;
let owner: Client;
let ui: Client;
const logged: string[] = [];

beforeAll(async () => {
  delete process.env.KITTING_PUBLIC_URL;
  for (const m of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
  }
  central = await startTestServer({ mode: 'central' });
  // The bench logs every request, as deployed.
  bench = await startTestServer({ mode: 'bench', config: { log: true } });
  owner = central.client();
  ui = bench.client();
  await owner.get('/api/devices');
  await ui.get('/api/devices');
});
afterAll(async () => {
  vi.restoreAllMocks();
  if (priorPublic === undefined) delete process.env.KITTING_PUBLIC_URL;
  else process.env.KITTING_PUBLIC_URL = priorPublic;
  await bench.close();
  await central.close();
});

const payload = jwsPayload;
const digestOf = jwsDigest;

async function issue(c: Client, cust: string, imei: string): Promise<Signed> {
  const made = await c.post<{ cert: { no: string } }>('/api/cert', { cust, devices: [{ model: 'iPhone 15', id: imei, storage: '128GB' }] });
  expect(made.status, made.text).toBe(200);
  return (await c.get<Signed>(`/api/cert/${made.body.cert.no}`)).body;
}

describe('a bench signs certificates, standalone and enrolled', () => {
  let standalone: Signed;
  let offline: Signed;
  let benchKeyFile: string;

  it('signs standalone with its own key and publishes it itself', async () => {
    await issue(owner, '中央発行', '356938035640001');
    standalone = await issue(ui, '作業台 単独発行', '356938035640002');
    const localWs = bench.ctx.benchWorkspace as string;
    expect(payload(standalone.signature.jws).ws).toBe(localWs);
    expect(standalone.verifyUrl).toBeNull();
    const keys = await ui.get<{ keys: { kid: string }[] }>(`/api/public/cert-keys?ws=${localWs}`);
    expect(keys.body.keys.map((k) => k.kid)).toEqual([standalone.signature.kid]);
    benchKeyFile = readFileSync(join(bench.dataDir, SIGNING_KEY_FILE), 'utf8');
  });

  it('registers its public key at enrolment and learns the public address', async () => {
    process.env.KITTING_PUBLIC_URL = PUBLIC;
    const { code } = (await owner.post<Body & { code: string }>('/api/sync/enrol-code')).body;
    const enrolled = await ui.post<Body>('/api/sync/enrol', { central: central.url, code });
    expect(enrolled.status, enrolled.text).toBe(200);
    delete process.env.KITTING_PUBLIC_URL;
    const ws = owner.workspaceId() as string;
    const keys = await central.client().get<{ keys: { kid: string; bench?: string }[] }>(`/api/public/cert-keys?ws=${ws}`);
    expect(keys.body.keys.find((k) => k.kid === standalone.signature.kid)?.bench).toBe(bench.store.node);
  });

  it('verifies on central before sync through POST /api/public/verify (synced: false), not by number yet', async () => {
    offline = await issue(ui, '作業台 オフライン発行', '356938035640003');
    expect(offline.verifyUrl).toBe(`${PUBLIC}/verify/${offline.cert.no}?d=${digestOf(offline.signature.jws)}`);
    const pdf = await fetchPdf(bench, ui, offline.cert.no);
    const c = central.client();
    const before = await c.post<Answer>('/api/public/verify', { file: b64(pdf) });
    expect(before.body).toMatchObject({ status: 'valid', synced: false, issuer: { kid: offline.signature.kid, bench: bench.store.node } });
    expect((await c.get<Answer>(`/api/public/verify?no=${offline.cert.no}&d=${digestOf(offline.signature.jws)}`)).body.status).toBe('unknown');
    // The certificate signed before enrolment (renumbered since) verifies from its PDF too.
    const renumbered = await ui.get<Signed>(`/api/cert/${standalone.cert.no}`);
    const current = renumbered.body.cert.no;
    const old = await c.post<Answer>('/api/public/verify', { file: b64(await fetchPdf(bench, ui, current)) });
    expect(old.body.status).toBe('valid');
  });

  it('verifies by number after sync; a renumbered certificate under its former number, naming the current one', async () => {
    const now = await ui.post<Body>('/api/sync/now');
    expect(now.status, now.text).toBe(200);
    const c = central.client();
    const after = await c.get<Answer>(`/api/public/verify?no=${offline.cert.no}&d=${digestOf(offline.signature.jws)}`);
    expect(after.body).toMatchObject({ status: 'valid', synced: true, certificate: { no: offline.cert.no } });
    const formerNo = String(payload(standalone.signature.jws).no);
    const renumbered = await c.get<Answer>(`/api/public/verify?no=${formerNo}&d=${digestOf(standalone.signature.jws)}`);
    expect(renumbered.body.status).toBe('valid');
    expect(renumbered.body.certificate?.formerNo).toBe(formerNo);
    expect(renumbered.body.certificate?.no).not.toBe(formerNo);
    const pdf = await c.post<Answer>('/api/public/verify', { file: b64(await fetchPdf(bench, ui, String(renumbered.body.certificate?.no))) });
    expect(pdf.body).toMatchObject({ status: 'valid', synced: true });
  });

  it('the offline verifier on the bench uses the keys of the central it is enrolled with when given none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cert-cli-bench-'));
    try {
      const file = join(dir, 'cert.pdf');
      writeFileSync(file, await fetchPdf(bench, ui, offline.cert.no));
      const out: string[] = [];
      const code = await runVerify([file], { KITTING_DATA_DIR: bench.dataDir }, (l) => out.push(l), (l) => out.push(l));
      expect(out.join('\n')).toContain('valid');
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a revocation on the bench syncs: central answers revoked', async () => {
    const r = await ui.post<Body>(`/api/cert/${offline.cert.no}/revoke`, { reason: '顧客名の誤り' });
    expect(r.status, r.text).toBe(200);
    expect((await ui.post<Body>('/api/sync/now')).status).toBe(200);
    const ans = await central.client().get<Answer>(`/api/public/verify?no=${offline.cert.no}&d=${digestOf(offline.signature.jws)}`);
    expect(ans.body).toMatchObject({ status: 'revoked', revoked: { reason: '顧客名の誤り' } });
  });

  it('a bench enrolled before certificate keys existed publishes its key at its next sync', async () => {
    const ws = owner.workspaceId() as string;
    // As before this version: central holds no key of the bench, and the bench never sent one.
    for (const row of await central.store.list(PLATFORM_WS, 'certKeys')) {
      if (row.bench === bench.store.node && row.ws === ws) await central.store.transact(PLATFORM_WS, (tx) => tx.remove('certKeys', String(row.id)));
    }
    await bench.store.setMeta('sync_cert_key', '');
    const kid = standalone.signature.kid;
    const before = await central.client().get<{ keys: { kid: string }[] }>(`/api/public/cert-keys?ws=${ws}`);
    expect(before.body.keys.map((k) => k.kid)).not.toContain(kid);
    expect((await ui.post<Body>('/api/sync/now')).status).toBe(200);
    const after = await central.client().get<{ keys: { kid: string }[] }>(`/api/public/cert-keys?ws=${ws}`);
    expect(after.body.keys.map((k) => k.kid)).toContain(kid);
  });

  it("keeps a retired bench's certificates verifying and marks its key retired", async () => {
    const res = await owner.post<Body>(`/api/sync/benches/${bench.store.node}/revoke`);
    expect(res.status, res.text).toBe(200);
    const ws = owner.workspaceId() as string;
    const keys = await central.client().get<{ keys: { kid: string; retired?: boolean }[] }>(`/api/public/cert-keys?ws=${ws}`);
    expect(keys.body.keys.find((k) => k.kid === standalone.signature.kid)?.retired).toBe(true);
    const formerNo = String(payload(standalone.signature.jws).no);
    expect((await central.client().get<Answer>(`/api/public/verify?no=${formerNo}&d=${digestOf(standalone.signature.jws)}`)).body.status).toBe('valid');
    // Issued after the retirement, never synced: not accepted under the retired key.
    const late = await issue(ui, '廃止後の発行', '356938035640004');
    const ans = await central.client().post<Answer>('/api/public/verify', { file: b64(await fetchPdf(bench, ui, late.cert.no)) });
    expect(ans.body).toMatchObject({ status: 'mismatch', reason: 'key_retired' });
  });

  it('never lets the private key leave the bench: not in a push, the change log, a backup, the key registry or a log', async () => {
    const d = (JSON.parse(benchKeyFile) as { d: string }).d;
    expect(d.length).toBeGreaterThan(20);
    const ws = owner.workspaceId() as string;
    const pushed = await central.store.replica.changesSince(ws, 0, 100_000, 'nobody');
    expect(JSON.stringify(pushed)).not.toContain(d);
    const local = await bench.store.replica.localChanges(ws, 0, 100_000);
    expect(JSON.stringify(local)).not.toContain(d);
    expect(JSON.stringify(await takeBackup(central.ctx, ws, 'test', 'test'))).not.toContain(d);
    expect(JSON.stringify(await central.store.list(PLATFORM_WS, 'certKeys'))).not.toContain(d);
    expect(JSON.stringify(await bench.store.list(PLATFORM_WS, 'certKeys'))).not.toContain(d);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain(d);
  });
});
