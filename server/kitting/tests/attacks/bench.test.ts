/** Attacks on the headless bench from web pages, DNS rebinding of webhooks, and stored password hashes. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, FAST_TEST_COST } from '../../testing/harness.testkit';
import { hashPassword, needsRehash, OWASP_SCRYPT, PLATFORM_PASSWORD_MIN, setPasswordCost, verifyPassword } from '../../../core/security/passwords';
import { P, PLATFORM_WS } from '../../modules/platform-collections';
import { isInternalAddress, pinnedLookup, postToPublicUrl } from '../../../core/security/ssrf';

let bench: TestServer;
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(() => bench.close());

const port = () => new URL(bench.url).port;

/** fetch never lets a caller choose the Host header; a browser after DNS rebinding sends the attacker's. */
async function rawGet(path: string, host: string): Promise<{ status: number; text: string }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port()), path, headers: { host } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('headless bench', () => {
  it('answers no foreign Host name (DNS rebinding)', async () => {
    const foreign = await rawGet('/api/customers', `attacker.example:${port()}`);
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain('cust-');
    expect((await rawGet('/api/customers', `localhost:${port()}`)).status).toBe(200);
  });

  it('refuses a cross-site form post and keeps the record', async () => {
    const api = bench.client();
    const id = (await api.get<{ customers: { id: string }[] }>('/api/customers')).body.customers[0].id;
    const forms: Record<string, string>[] = [
      { origin: 'https://evil.example', 'content-type': 'text/plain' },
      { origin: 'https://evil.example', 'content-type': 'application/json' },
      { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'text/plain' },
    ];
    for (const headers of forms) {
      const res = await api.request('POST', `/api/customer/${id}/delete`, undefined, headers);
      expect([403, 415]).toContain(res.status);
    }
    expect((await api.get<{ customers: { id: string }[] }>('/api/customers')).body.customers.some((c) => c.id === id)).toBe(true);
    const same = await api.request('POST', `/api/customer/${id}`, { note: '同一オリジン' }, { origin: bench.url, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
  });
});

describe('webhook address checks', () => {
  let target: Server;
  let hits = 0;
  beforeAll(async () => {
    target = createServer((_req, res) => {
      hits += 1;
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(() => new Promise<void>((r) => target.close(() => r())));

  it('never posts to an internal address, whatever the name', async () => {
    const addr = target.address();
    const p = typeof addr === 'object' && addr ? addr.port : 0;
    expect(await postToPublicUrl(new URL(`http://localhost:${p}/hook`), '{}', { allowInternal: false })).toBeNull();
    expect(await postToPublicUrl(new URL(`http://127.0.0.1:${p}/hook`), '{}', { allowInternal: false })).toBeNull();
    expect(hits).toBe(0);
    expect(isInternalAddress('169.254.169.254')).toBe(true);
  });

  it('connects to the address that was checked, not to a second DNS answer', async () => {
    const addr = target.address();
    const p = typeof addr === 'object' && addr ? addr.port : 0;
    const { request } = await import('node:http');
    // The name does not resolve at all: the connection can only go where the pinned lookup says.
    const status = await new Promise<number | null>((resolve) => {
      const req = request(new URL(`http://rebind.invalid:${p}/hook`), { method: 'POST', lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }) }, (res) => {
        res.resume();
        resolve(res.statusCode ?? null);
      });
      req.on('error', () => resolve(null));
      req.end('{}');
    });
    expect(status).toBe(200);
    expect(hits).toBe(1);
  });
});

describe('password hashes', () => {
  afterAll(() => setPasswordCost(FAST_TEST_COST));

  it('hashes at OWASP scrypt parameters and rehashes an older hash at the next sign-in', async () => {
    setPasswordCost(OWASP_SCRYPT);
    expect(OWASP_SCRYPT).toEqual({ ln: 17, r: 8, p: 1 });
    const h = await hashPassword('owasp-password');
    expect(h).toMatch(/^scrypt\$ln=17,r=8,p=1\$/);
    expect(await verifyPassword('owasp-password', h)).toBe(true);
    expect(needsRehash(h)).toBe(false);

    const central = await startTestServer({ config: { adminPassword: 'central-admin-pw' } });
    setPasswordCost(FAST_TEST_COST);
    const legacy = await hashPassword('legacy-pass-1');
    expect(needsRehash(legacy)).toBe(false);
    await central.client().post('/api/account/signup', { email: 'legacy@example.jp', password: 'legacy-pass-1' });
    await central.store.transact(PLATFORM_WS, (tx) => tx.patch(P.accounts, 'legacy@example.jp', { pwHash: legacy }));
    setPasswordCost(OWASP_SCRYPT);
    expect(needsRehash(legacy)).toBe(true);
    expect((await central.client().post('/api/account/login', { email: 'legacy@example.jp', password: 'legacy-pass-1' })).status).toBe(200);
    const stored = (await central.store.get<{ pwHash: string }>(PLATFORM_WS, P.accounts, 'legacy@example.jp'))?.pwHash ?? '';
    expect(stored).toMatch(/^scrypt\$ln=17,r=8,p=1\$/);
    expect(await verifyPassword('legacy-pass-1', stored)).toBe(true);
    await central.close();
    expect(PLATFORM_PASSWORD_MIN).toBe(10);
  }, 60_000);
});
