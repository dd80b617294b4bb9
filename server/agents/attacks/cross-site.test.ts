import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
let token = '';
let cookie = '';
let host = '';

/** A raw request as a browser on another site would send it (no Bearer header: only the ambient cookie). */
const send = (path: string, headers: Record<string, string>, body = '{"name":"stolen"}') =>
  fetch(`${t.base}${path}`, { method: 'POST', headers: { cookie, ...headers }, body });

const keys = async () => arr((await t.api(token).get('/api/workspace/api-keys')).body.keys);

beforeAll(async () => {
  t = await startAgentsServer();
  const api = await t.signup();
  token = api.token ?? '';
  cookie = `service_token=${token}`;
  host = new URL(t.base).host;
});
afterAll(() => t.close());

describe('attack: cross-site writes with the session cookie', () => {
  it('a text/plain form post from https://evil.example mints no API key', async () => {
    const r = await send('/api/workspace/api-keys', { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: 'cross-site request refused' });
    expect(await keys()).toEqual([]);
  });

  it('a JSON write from another origin is refused too, and so is one that names no origin at all', async () => {
    expect((await send('/api/workspace/api-keys', { 'content-type': 'application/json', origin: 'https://evil.example' })).status).toBe(403);
    expect((await send('/api/workspace/api-keys', { 'content-type': 'application/json', origin: 'null' })).status).toBe(403);
    expect((await send('/api/workspace/api-keys', { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await send('/api/workspace/api-keys', { 'content-type': 'application/json' })).status).toBe(403);
    expect(await keys()).toEqual([]);
  });

  it('a same-origin write with a non-JSON body is refused with 415', async () => {
    const r = await send('/api/workspace/api-keys', { 'content-type': 'text/plain', origin: `http://${host}` });
    expect(r.status).toBe(415);
    expect(await r.json()).toEqual({ error: 'unsupported media type' });
    expect(await keys()).toEqual([]);
  });

  it('the app itself (same Origin, or Sec-Fetch-Site same-origin) still writes with its cookie', async () => {
    expect((await send('/api/workspace/api-keys', { 'content-type': 'application/json', origin: `http://${host}` })).status).toBe(200);
    expect((await send('/api/workspace/api-keys', { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect(await keys()).toHaveLength(2);
  });

  it('Bearer-token calls are unaffected by Origin (no ambient credential)', async () => {
    const r = await fetch(`${t.base}/api/workspace/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{"name":"script"}' });
    expect(r.status).toBe(200);
  });
});

describe('session cookie Secure flag', () => {
  const login = (base: string, headers: Record<string, string>, email: string) =>
    fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ email, password: 'secret-pass' }) });

  it('is Secure behind a trusted TLS proxy (AGENTS_TRUST_PROXY=1), and a client cannot claim https without one', async () => {
    const api = await t.signup();
    const proxied = await login(t.base, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.40.0.1' }, api.email);
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('set-cookie')).toMatch(/;\s*Secure/i);

    const direct = await startAgentsServer({ trustProxy: 0 });
    try {
      const other = await direct.signup();
      const r = await login(direct.base, { 'x-forwarded-proto': 'https' }, other.email);
      expect(r.status).toBe(200);
      expect(r.headers.get('set-cookie')).not.toMatch(/Secure/i);
    } finally {
      await direct.close();
    }
  });
});
