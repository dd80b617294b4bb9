/**
 * Per-address limits of central are kept in the database: two central processes over one database (the
 * SQLite file, or the PostgreSQL schema in the pg project) count the same hits, so a client spreading its
 * attempts over both gets no more than the limit, with the same 429, Retry-After and error as one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../security/limits';
import { startTestServer, type TestServer } from '../testing/harness.testkit';

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startTestServer({ config: { trustProxy: 1, workspacesPerIpHour: 3 } });
  b = await startTestServer({ dataDir: a.dataDir, config: { trustProxy: 1, workspacesPerIpHour: 3 } });
});
afterAll(async () => {
  await b?.close({ keepData: true });
  await a?.close();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('per-address limits shared by central processes over one database', () => {
  it('the two apps run on one database', async () => {
    await a.store.transact('w-shared', (tx) => tx.put('notes', 'n1', { id: 'n1' }));
    expect(await b.store.get('w-shared', 'notes', 'n1')).toEqual({ id: 'n1' });
  });

  it('sign-in attempts from one address count across both processes', async () => {
    configureLimit(a.ctx, 'signIn', 3);
    configureLimit(b.ctx, 'signIn', 3);
    const ip = '203.0.113.71';
    const login = (s: TestServer) => s.client().post('/api/account/login', { email: 'nobody@example.jp', password: 'wrong-password' }, from(ip));
    expect((await login(a)).status).not.toBe(429);
    expect((await login(b)).status).not.toBe(429);
    expect((await login(a)).status).not.toBe(429);
    const refused = await login(b);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ ok: false, error: 'too many requests' });
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect((await login(a)).status).toBe(429);
    // another address still has its own quota
    expect((await a.client().post('/api/account/login', { email: 'nobody@example.jp', password: 'wrong-password' }, from('203.0.113.72'))).status).not.toBe(429);
  });

  it('public status reads from one address count across both processes', async () => {
    configureLimit(a.ctx, 'publicStatus', 2);
    configureLimit(b.ctx, 'publicStatus', 2);
    const ip = '203.0.113.81';
    const status = (s: TestServer) => s.client().get('/api/public/status?site=no-such-site', from(ip));
    expect((await status(a)).status).not.toBe(429);
    expect((await status(b)).status).not.toBe(429);
    const refused = await status(a);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
  });

  it('anonymous workspaces per address are capped across both processes', async () => {
    const ip = '203.0.113.91';
    const fresh = (s: TestServer) => s.client().get('/api/devices', from(ip));
    expect((await fresh(a)).status).toBe(200);
    expect((await fresh(b)).status).toBe(200);
    expect((await fresh(a)).status).toBe(200);
    const refused = await fresh(b);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ ok: false, error: 'too many new workspaces from this address' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
  });
});
