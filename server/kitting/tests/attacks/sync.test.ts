/** Attacks through the sync protocol: pushes that the routes would refuse, cursor junk, code guessing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness';
import { configureLimit } from '../../../core/security/limits';
import { PLATFORM_WS } from '../../../core/security/platform';
import { addMember, signUp, type Body } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { adminPassword: 'sync-admin-pass' } });
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(() => server.close());

let n = 0;
const hlc = (bench: string) => `${String(Date.now()).padStart(15, '0')}:${String(n++).padStart(6, '0')}:${bench}`;

async function enrol(browser: Client, auth: Record<string, string> = {}) {
  const code = (await browser.post<{ code: string }>('/api/sync/enrol-code', {}, auth)).body.code;
  const bench = `b${Date.now().toString(36)}${n++}`;
  const r = await server.client().post<{ token: string }>('/api/sync/v1/enrol', { code, bench, name: 'attack' });
  expect(r.status).toBe(200);
  const push = (changes: { coll: string; id: string; fields: Record<string, unknown> }[]) =>
    server.client().post<Body>('/api/sync/v1/push', { batch: `bt-${n++}`, changes: changes.map((c, i) => ({ seq: n * 1000 + i, hlc: hlc(bench), ...c })) }, { 'x-kitting-bench-token': r.body.token });
  return { token: r.body.token, bench, push };
}

describe('sync pushes are authorized like the routes', () => {
  it("an anonymous workspace cannot take another tenant's published portal slug", async () => {
    const victim = server.client();
    const slug = String((await victim.get<{ state: Record<string, { slug: string }> }>('/api/portals')).body.state.abc.slug);
    expect((await victim.post('/api/portal/abc', { action: 'toggle', published: true })).status).toBe(200);
    const victimStatus = (await server.client().get<{ total: number }>(`/api/public/status?site=${slug}`)).body;
    const attacker = server.client();
    await attacker.get('/api/jobs');
    const b = await enrol(attacker);
    const res = await b.push([{ coll: 'portals', id: 'abc', fields: { slug, published: true, name: 'ABC物流株式会社' } }]);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('slug taken');
    // nor through the portal route after a forged slug, nor by toggling it off
    expect((await attacker.post('/api/portal/abc', { action: 'toggle', published: false })).status).toBe(200);
    const after = await server.client().get<{ total: number }>(`/api/public/status?site=${slug}`);
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(victimStatus.total);
  });

  it('a bench acts with the role of whoever enrolled it: an admin bench cannot make anyone owner', async () => {
    const o = await signUp(server, 'sync-owner@example.jp');
    const a = await addMember(server, o.auth, 'sync-admin@example.jp', 'admin');
    const v = await addMember(server, o.auth, 'sync-viewer@example.jp', 'viewer');
    const b = await enrol(a.c, a.auth);
    const before = await server.store.replica.lastSeq(o.ws);
    const res = await b.push([{ coll: 'team', id: v.memberId, fields: { role: 'owner' } }]);
    expect(res.status).toBe(403);
    expect(await server.store.replica.lastSeq(o.ws)).toBe(before);
    const members = (await o.c.get<{ members: { id: string; role: string }[] }>('/api/team/members', o.auth)).body.members;
    expect(members.find((m) => m.id === v.memberId)?.role).toBe('viewer');
    // once the enroller is only a viewer, the bench writes nothing at all
    await server.client().post(`/api/team/member/${a.memberId}`, { role: 'viewer' }, o.auth);
    expect((await b.push([{ coll: 'customers', id: 'cust-bench', fields: { name: '作業台から' } }])).status).toBe(403);
    expect((await o.c.get<{ customers: { id: string }[] }>('/api/customers', o.auth)).body.customers.some((c) => c.id === 'cust-bench')).toBe(false);
  });

  it('pushes count against the plan limits on central', async () => {
    const o = await signUp(server, 'sync-plan@example.jp');
    const admin = (await server.client().post<{ token: string }>('/api/admin/login', { password: 'sync-admin-pass' })).body.token;
    expect((await server.client().post(`/api/admin/workspace/${o.ws}/plan`, { planKey: 'starter' }, { authorization: `Bearer ${admin}` })).status).toBe(200);
    const b = await enrol(o.c, o.auth);
    const before = (await o.c.get<{ customers: unknown[] }>('/api/customers', o.auth)).body.customers.length;
    const changes = Array.from({ length: 11 }, (_, i) => ({ coll: 'customers', id: `cust-plan-${i}`, fields: { name: `顧客${i}` } }));
    const res = await b.push(changes);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('plan_limit');
    expect((await o.c.get<{ customers: unknown[] }>('/api/customers', o.auth)).body.customers).toHaveLength(before);
  });

  it('malformed field names and values are refused with 422', async () => {
    const c = server.client();
    await c.get('/api/jobs');
    const b = await enrol(c);
    expect((await b.push([{ coll: 'team', id: 'tx', fields: { role: 'superuser' } }])).status).toBe(422);
    expect((await b.push([{ coll: 'jobs', id: 'job-x', fields: { 'bad\u0000field': 1 } }])).status).toBe(422);
  });
});

describe('sync protocol input', () => {
  it('a snapshot cursor that is not a cursor answers 400, not 500', async () => {
    const c = server.client();
    await c.get('/api/jobs');
    const b = await enrol(c);
    const res = await server.client().get<Body>('/api/sync/v1/snapshot?after=notjson', { 'x-kitting-bench-token': b.token });
    expect(res.status).toBe(400);
    expect(res.body.ok).toBe(false);
  });

  it('guessing enrolment codes locks the address out', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await server.client().post('/api/sync/v1/enrol', { code: `ZZZZ-ZZ${String(i).padStart(2, '2')}`, bench: 'guess' })).status);
    expect(statuses.slice(0, 10).every((s) => s === 403)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(await server.store.replica.lastSeq(PLATFORM_WS)).toBeGreaterThan(0);
  });
});
