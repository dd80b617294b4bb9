/**
 * Role × route matrix, generated from the routes' `auth` declarations and the table in policy.ts:
 * for every registered route and every kind of caller, a caller the table allows gets past the
 * authorization layer, and every other caller gets 401/403 naming the access it lacks, with nothing
 * stored in the workspace or on the platform.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../modules';
import { PLATFORM_WS } from '../modules/platform-collections';
import { allows, type Actor, type Role } from '../security/policy';
import { configureLimit } from '../security/limits';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';

let server: TestServer;
let ws = '';

interface Caller {
  name: string;
  actor: Actor;
  headers: Record<string, string>;
  client: Client;
  /** Without a workspace session the browser is a new anonymous visitor on workspace routes. */
  anonymousFallback: boolean;
}
const callers: Caller[] = [];
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

async function join(owner: Record<string, string>, email: string, role: Role, scopes?: Record<string, string>) {
  const inv = await server.client().post<{ token: string; member: { id: string } }>('/api/team/invite', { email, role: role === 'owner' ? 'admin' : role }, owner);
  const c = server.client();
  const ok = await c.post<{ token: string }>('/api/team/accept', { inviteToken: inv.body.token, email, password: 'matrix-pass-1' });
  expect(ok.status).toBe(200);
  if (scopes || role === 'owner') await server.client().post(`/api/team/member/${inv.body.member.id}`, { ...(scopes ? { scopes } : {}), ...(role === 'owner' ? { role } : {}) }, owner);
  return { token: ok.body.token, memberId: inv.body.member.id };
}

const memberActor = (role: Role, scopes: Record<string, string> = {}): Actor => ({
  kind: 'member', ws, role, scopes, accountId: 'x', email: 'x', memberId: 'x', assist: false,
});

beforeAll(async () => {
  server = await startTestServer({ config: { adminPassword: 'matrix-admin-pw' } });
  configureLimit(server.ctx, 'signup', 1000);
  const o = await server.client().post<{ token: string; adoptedTenant: string }>('/api/account/signup', { email: 'owner@matrix.jp', password: 'matrix-pass-1' });
  ws = o.body.adoptedTenant;
  const owner = bearer(o.body.token);
  await server.client().post('/api/team/plan', { planKey: 'ent' }, owner);
  const memberScopes = { ops: 'edit', sales: 'none', support: 'view', mgmt: 'none', settings: 'none' };
  const admin = await join(owner, 'admin@matrix.jp', 'admin');
  const execScopes = { ops: 'view', sales: 'view', support: 'view', mgmt: 'edit', settings: 'view' };
  const exec = await join(owner, 'exec@matrix.jp', 'exec', execScopes);
  const member = await join(owner, 'member@matrix.jp', 'member', memberScopes);
  const viewer = await join(owner, 'viewer@matrix.jp', 'viewer', { ops: 'edit', sales: 'none' });
  const removed = await join(owner, 'removed@matrix.jp', 'member');
  expect((await server.client().post(`/api/team/member/${removed.memberId}/delete`, {}, owner)).status).toBe(200);

  const adminToken = (await server.client().post<{ token: string }>('/api/admin/login', { password: 'matrix-admin-pw' })).body.token;
  const subs: Record<string, string> = {};
  for (const canDelete of [false, true]) {
    const email = `sub-${canDelete}@matrix.jp`;
    const made = await server.client().post('/api/admin/subadmin', { name: 'Sub', email, password: 'matrix-sub-pass-1', tenants: [ws], canDelete }, bearer(adminToken));
    expect(made.status).toBe(200);
    subs[String(canDelete)] = (await server.client().post<{ token: string }>('/api/subadmin/login', { email, password: 'matrix-sub-pass-1' })).body.token;
  }
  const code = (await server.client().post<{ code: string }>('/api/sync/enrol-code', {}, owner)).body.code;
  const enrolled = await server.client().post<{ token: string }>('/api/sync/v1/enrol', { code, bench: 'matrix-bench', name: 'M' });
  expect(enrolled.status).toBe(200);

  const add = (name: string, actor: Actor, headers: Record<string, string>, anonymousFallback = false) =>
    callers.push({ name, actor, headers, client: server.client(), anonymousFallback });
  add('anonymous browser', { kind: 'anonymous', ws: '' }, {});
  add('owner', memberActor('owner'), owner);
  add('admin', memberActor('admin'), bearer(admin.token));
  add('exec (mgmt edit, others view)', memberActor('exec', execScopes), bearer(exec.token));
  add('member (ops edit, sales none)', memberActor('member', memberScopes), bearer(member.token));
  add('viewer', memberActor('viewer', { ops: 'edit', sales: 'none' }), bearer(viewer.token));
  add('removed member', { kind: 'none' }, bearer(removed.token));
  add('platform admin', { kind: 'admin' }, bearer(adminToken), true);
  add('sub-admin', { kind: 'subadmin', id: 'x', canDelete: false }, bearer(subs.false), true);
  add('sub-admin with canDelete', { kind: 'subadmin', id: 'x', canDelete: true }, bearer(subs.true), true);
  add('bench token', { kind: 'bench', ws, bench: 'matrix-bench', role: 'owner' }, { 'x-kitting-bench-token': enrolled.body.token }, true);
}, 120_000);
afterAll(() => server.close());

const fill = (path: string) => path.replace(/:([A-Za-z]+)/g, 'matrix-x');
const seqs = async () => [await server.store.replica.lastSeq(ws), await server.store.replica.lastSeq(PLATFORM_WS)];

describe('role × route matrix', () => {
  it('covers every registered route with a declared access', () => {
    expect(allRoutes.length).toBeGreaterThan(250);
    for (const r of allRoutes) expect(typeof r.auth).toBe('string');
  });

  it('lets exactly the callers the table allows past the layer; the others get 401/403 and nothing is stored', async () => {
    const wrong: string[] = [];
    for (const route of allRoutes) {
      const method = route.method.toUpperCase();
      const path = fill(route.path);
      const body = route.method === 'get' ? undefined : {};
      if (route.auth === 'public' || route.auth === 'token') {
        const res = await server.client().request(method, path, body);
        if ((res.status === 401 || res.status === 403) && (res.body as { need?: string } | null)?.need) wrong.push(`${method} ${route.path} public refused`);
        continue;
      }
      if (route.auth === 'local') {
        // bench-only routes: the central server knows none of them
        const res = await callers[1].client.request(method, path, body, callers[1].headers);
        if (res.status !== 404) wrong.push(`${method} ${route.path} local route answered ${res.status} on central`);
        continue;
      }
      for (const c of callers) {
        const fallback = c.anonymousFallback && route.workspace !== false && !route.auth.startsWith('account');
        const expected = allows(route.auth, c.actor) || (fallback && allows(route.auth, { kind: 'anonymous', ws: '' }));
        const before = await seqs();
        const res = await c.client.request(method, path, body, c.headers);
        const b = (res.body ?? {}) as { need?: string; error?: string };
        const refusedByLayer = (res.status === 401 || res.status === 403) && (b.need === route.auth || b.error === 'session_ended' || route.auth === 'bench');
        if (expected && refusedByLayer) wrong.push(`${method} ${route.path} [${route.auth}] refused ${c.name}: ${res.status} ${res.text.slice(0, 80)}`);
        if (!expected) {
          if (!refusedByLayer) wrong.push(`${method} ${route.path} [${route.auth}] let ${c.name} through: ${res.status} ${res.text.slice(0, 80)}`);
          const after = await seqs();
          if (after[0] !== before[0] || after[1] !== before[1]) wrong.push(`${method} ${route.path} stored something for ${c.name}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});
