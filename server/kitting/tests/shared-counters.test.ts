/**
 * Lockouts, enrolment guessing and publish limits are counted in the database: a restart forgets none,
 * and several central processes over one database (PostgreSQL in the pg project, one SQLite file here)
 * count together, so an attacker cannot spread attempts over the processes behind a balancer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.testkit';

const PW = 'shared-admin-pass';
const open: TestServer[] = [];
async function start(dataDir?: string): Promise<TestServer> {
  const s = await startTestServer({ dataDir, config: { adminPassword: PW } });
  open.push(s);
  return s;
}
/** Close every instance; all but the last keep the data the others still use. */
afterEach(async () => {
  while (open.length > 0) {
    const s = open.shift() as TestServer;
    await s.close({ keepData: open.length > 0 });
  }
});

const adminLogin = (s: TestServer, password: string) => s.client().post('/api/admin/login', { password });

describe('attempt counters kept in the database', () => {
  it('a sign-in lockout survives a restart', async () => {
    const first = await start();
    for (let i = 0; i < 7; i++) expect((await adminLogin(first, 'wrong-password')).status).toBe(401);
    expect((await adminLogin(first, 'wrong-password')).status).toBe(429);
    expect((await adminLogin(first, PW)).status).toBe(429);
    await first.close({ keepData: true });
    open.splice(open.indexOf(first), 1);

    const restarted = await start(first.dataDir);
    const locked = await adminLogin(restarted, PW);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('two app instances over one database share a lockout, and one cleared on one is cleared for both', async () => {
    const a = await start();
    const b = await start(a.dataDir);
    for (let i = 0; i < 7; i++) expect((await adminLogin(i % 2 ? a : b, 'wrong-password')).status).toBe(401);
    expect((await adminLogin(a, 'wrong-password')).status).toBe(429);
    // eight failures in all: both instances now refuse even the right password
    expect((await adminLogin(a, PW)).status).toBe(429);
    expect((await adminLogin(b, PW)).status).toBe(429);
    const row = await a.store.readCounter('lock:admin|127.0.0.1');
    expect(row?.n).toBe(8);
    await b.store.updateCounter('lock:admin|127.0.0.1', () => null);
    expect((await adminLogin(a, PW)).status).toBe(200);
  });

  it('concurrent failures on two instances are all counted', async () => {
    const a = await start();
    const b = await start(a.dataDir);
    await Promise.all(Array.from({ length: 6 }, (_, i) => adminLogin(i % 2 ? a : b, 'wrong-password')));
    expect((await a.store.readCounter('lock:admin|127.0.0.1'))?.n).toBe(6);
  });

  it('enrolment code guesses are counted across instances', async () => {
    const a = await start();
    const b = await start(a.dataDir);
    const guess = (s: TestServer, i: number) => s.client().post('/api/sync/v1/enrol', { code: `ZZZZ-ZZ${String(i).padStart(2, '2')}`, bench: 'guess' });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await guess(i % 2 ? a : b, i)).status);
    expect(statuses.every((s) => s === 403)).toBe(true);
    expect((await guess(a, 11)).status).toBe(429);
    expect((await guess(b, 12)).status).toBe(429);
  });

  it("a workspace's publish limit survives a restart", async () => {
    const { PUBLISH_PER_WINDOW } = await import('../modules/sites/site-index');
    const first = await start();
    const browser = first.client();
    for (let i = 0; i < PUBLISH_PER_WINDOW; i++) expect((await browser.post('/api/site/publish', { slug: 'keep-count', html: `<p>${i}</p>` })).status).toBe(200);
    await first.close({ keepData: true });
    open.splice(open.indexOf(first), 1);

    const restarted = await start(first.dataDir);
    const again = restarted.client();
    for (const c of ['kit_tid']) {
      const v = browser.cookie(c);
      if (v) again.setCookie(c, v);
    }
    const res = await again.post('/api/site/publish', { slug: 'keep-count', html: '<p>again</p>' });
    expect(res.status).toBe(429);
  });
});
