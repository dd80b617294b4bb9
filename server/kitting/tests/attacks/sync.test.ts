/** Attacks through the sync protocol: pushes that the routes would refuse, cursor junk, code guessing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { configureLimit } from '../../security/limits';
import { PLATFORM_WS } from '../../modules/platform-collections';
import { addMember, signUp, type Body } from './helpers.testkit';

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

  it('a collection no route writes is refused, even from an owner bench, and nothing of the batch is stored', async () => {
    const o = await signUp(server, 'sync-unknown@example.jp');
    const b = await enrol(o.c, o.auth);
    const before = await server.store.replica.lastSeq(o.ws);
    for (const coll of ['tenants', 'accounts', 'sessions', 'portalSlugs', 'anything']) {
      const res = await b.push([
        { coll: 'customers', id: 'cust-unknown', fields: { id: 'cust-unknown', name: '同じ一括の顧客' } },
        { coll, id: 'x1', fields: { id: 'x1', status: 'active' } },
      ]);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ ok: false, error: 'unknown_collection', coll, id: 'x1' });
      expect(String(res.body.message)).toContain('同期できる');
    }
    expect(await server.store.replica.lastSeq(o.ws)).toBe(before);
    expect(await server.store.get(o.ws, 'customers', 'cust-unknown')).toBeNull();
    expect(await server.store.get(o.ws, 'anything', 'x1')).toBeNull();
  });
});

describe('pushed values pass the schema of the routes that write the collection', () => {
  const forged: [string, string, Record<string, unknown>, string][] = [
    ['devices', '359000000000001', { imei: '359000000000001', model: 'x'.repeat(61) }, 'model'],
    ['devices', '359000000000002', { imei: '359000000000002', bat: 'full' }, 'bat'],
    ['devices', '359000000000003', { imei: '359000000000003', isAdmin: true }, 'isAdmin'],
    ['devices', '359000000000004', { imei: 'someone-else', model: 'iPhone 16' }, 'imei'],
    ['jobs', 'job-forged-1', { id: 'job-forged-1', c: '案件', s: 99 }, 's'],
    ['jobs', 'job-forged-2', { id: 'job-forged-2', c: { $gt: '' } }, 'c'],
    ['shipments', 'SHP-9001', { id: 'SHP-9001', kind: 'teleport' }, 'kind'],
    ['customers', 'cust-forged', { id: 'cust-forged', name: '顧客', renew: { date: '2027-02-30' } }, 'renew'],
    ['tickets', 'TK-09001', { id: 'TK-09001', subject: 's'.repeat(301) }, 'subject'],
    ['staff', 'st-forged', { id: 'st-forged', name: '派遣', type: 'contractor' }, 'type'],
    ['team', 'tm-forged', { id: 'tm-forged', name: '新人', role: 'member', scopes: { ops: 'root' } }, 'scopes'],
  ];

  it.each(forged)('a forged %s push (%s) is refused with the field named and nothing stored', async (coll, id, fields, field) => {
    const c = server.client();
    await c.get('/api/jobs');
    const ws = c.workspaceId() ?? '';
    const b = await enrol(c);
    const before = await server.store.replica.lastSeq(ws);
    const good = coll === 'devices' ? { coll: 'devices', id: '359000000000999', fields: { imei: '359000000000999', model: 'iPhone 16' } } : { coll: 'jobs', id: 'job-good', fields: { id: 'job-good', c: '正しい案件' } };
    const res = await b.push([good, { coll, id, fields }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, error: 'invalid_field', coll, id, field });
    expect(String(res.body.message)).toContain(field);
    expect(await server.store.replica.lastSeq(ws)).toBe(before);
    expect(await server.store.get(ws, coll, id)).toBeNull();
    expect(await server.store.get(ws, good.coll, good.id)).toBeNull();
  });

  it('the same values pass when the routes would store them as given', async () => {
    const c = server.client();
    await c.get('/api/jobs');
    const ws = c.workspaceId() ?? '';
    const b = await enrol(c);
    const res = await b.push([
      { coll: 'devices', id: '359000000000010', fields: { imei: '359000000000010', model: 'x'.repeat(60), bat: 80, chip: 'c-blue', history: [], created: 1 } },
      { coll: 'jobs', id: 'job-ok', fields: { id: 'job-ok', c: '案件', s: 3, devices: ['359000000000010'] } },
      { coll: 'customers', id: 'cust-ok', fields: { id: 'cust-ok', name: '顧客', renew: { date: '2027-02-28', dateLabel: '02/28', year: '2027' }, note: null } },
      { coll: 'staff', id: 'st-ok', fields: { id: 'st-ok', name: '派遣', type: 'agency' } },
    ]);
    expect(res.status).toBe(200);
    expect((await server.store.get(ws, 'devices', '359000000000010'))?.model).toBe('x'.repeat(60));
    expect((await server.store.get(ws, 'jobs', 'job-ok'))?.s).toBe(3);
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
