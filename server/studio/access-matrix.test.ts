/**
 * Role × route matrix of the studio, generated from the routes' `auth` declarations and the rule in route.ts:
 * for every mounted route and every kind of caller (no credential, owner, editor, viewer, client, API key,
 * the admin and cron secrets), a caller the rule allows gets past the layer, every other caller gets
 * 401/403 from the layer, and the refused calls change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioRoutes } from './app';
import express from 'express';
import { allows, mountStudioRoutes, STUDIO_ACCESS, type StudioAuth, type StudioRoute } from './route';
import type { StudioContext } from './context';
import { ADMIN, CRON, startStudio, type TestStudio } from './testing.testkit';

let s: TestStudio;
type Kind = 'none' | 'session' | 'apikey' | 'admin' | 'cron';
interface Who {
  name: string;
  kind: Kind;
  role: 'owner' | 'editor' | 'viewer' | 'client' | null;
  auth?: string;
  headers?: Record<string, string>;
}
const callers: Who[] = [];

beforeAll(async () => {
  s = await startStudio();
  const owner = await s.register('owner@matrix.test');
  callers.push({ name: 'no credential', kind: 'none', role: null });
  callers.push({ name: 'owner', kind: 'session', role: 'owner', auth: owner.token });
  for (const role of ['editor', 'viewer', 'client'] as const) {
    const u = await s.register(`${role}@matrix.test`);
    // seated as an accepted invitation leaves it (the seat routes themselves are rows of the matrix)
    await s.run('INSERT INTO members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)', owner.ws, u.uid, role, new Date().toISOString());
    const login = await s.call<{ token: string }>('POST', '/api/auth/login', { body: { email: `${role}@matrix.test`, password: 'correct horse', workspace_id: owner.ws } });
    callers.push({ name: role, kind: 'session', role, auth: login.body.token });
  }
  callers.push({ name: 'API key', kind: 'apikey', role: 'editor', auth: await s.apiKey(owner.token) });
  callers.push({ name: 'admin secret', kind: 'admin', role: null, headers: { 'x-admin-secret': ADMIN } });
  callers.push({ name: 'cron secret', kind: 'cron', role: null, headers: { 'x-cron-secret': CRON } });
}, 60_000);
afterAll(() => s.close());

function expected(auth: StudioAuth, c: Who): boolean {
  if (auth === 'PUBLIC') return true;
  if (auth === 'ADMIN') return c.kind === 'admin';
  if (auth === 'CRON') return c.kind === 'cron';
  if (c.kind !== 'session' && c.kind !== 'apikey') return false;
  return allows(auth, { role: c.role ?? 'viewer', apiKeyId: c.kind === 'apikey' ? 'key' : null });
}

const LAYER_403 = ['read-only role', 'owner only', 'not allowed with an api key'];
const refusedByLayer = (status: number, body: { error?: unknown }) => status === 401 || (status === 403 && LAYER_403.includes(String(body.error)));
const fill = (path: string) => path.replace(/:([A-Za-z_]+)/g, '999999');
const snapshot = async () => {
  const tables =
    s.ctx.database.dialect === 'sqlite'
      ? await s.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      : await s.all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name");
  // an API key's last_used_at is the authentication's own bookkeeping, not something the refused call changed
  const rows = async (name: string) => (await s.all(`SELECT * FROM "${name}" ORDER BY 1`)).map(({ last_used_at: _used, ...r }) => r);
  const out: string[] = [];
  for (const { name } of tables) out.push(`${name}:${JSON.stringify(await rows(name))}`);
  return out.join('\n');
};
const call = (c: Who, method: string, path: string) => s.call(method.toUpperCase(), fill(path), { auth: c.auth, headers: c.headers, body: method === 'get' ? undefined : {} });

describe('role × route matrix (studio)', () => {
  it('every route declares one access of the table, and each access is in use', () => {
    expect(studioRoutes.length).toBeGreaterThan(25);
    expect(studioRoutes.filter((r) => !(STUDIO_ACCESS as readonly string[]).includes(r.auth)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    for (const a of ['AUTH', 'WRITE', 'OWNER_PERSON', 'ADMIN', 'CRON', 'PUBLIC']) expect(studioRoutes.some((r) => r.auth === a), a).toBe(true);
  });

  it('a route without a declaration (or with an unknown one) cannot be mounted', () => {
    const rogue = { method: 'post', path: '/api/rogue', handler: () => ({}) } as unknown as StudioRoute;
    expect(() => mountStudioRoutes(express.Router(), [rogue], {} as StudioContext)).toThrow('route without a valid auth declaration: POST /api/rogue');
    expect(() => mountStudioRoutes(express.Router(), [{ ...rogue, auth: 'EVERYONE' } as unknown as StudioRoute], {} as StudioContext)).toThrow('POST /api/rogue');
  });

  it('refuses every caller the rule does not allow with 401/403, and those calls change nothing', async () => {
    const wrong: string[] = [];
    const before = await snapshot();
    for (const route of studioRoutes) {
      for (const c of callers) {
        if (expected(route.auth, c)) continue;
        const r = await call(c, route.method, route.path);
        if (!refusedByLayer(r.status, r.body)) wrong.push(`${route.method.toUpperCase()} ${route.path} [${route.auth}] ${c.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    const after = (await snapshot()).split('\n');
    expect(after.filter((t) => !before.split('\n').includes(t)).map((t) => t.slice(0, 300))).toEqual([]);
  }, 300_000);

  it('lets every caller the rule allows past the layer', async () => {
    const wrong: string[] = [];
    // Logging out ends the caller's session, so it is called last (every other row still needs the session).
    const ends = (r: StudioRoute) => Number(r.path === '/api/auth/logout');
    for (const route of [...studioRoutes].sort((a, b) => ends(a) - ends(b))) {
      if (route.auth === 'PUBLIC') continue;
      for (const c of callers) {
        if (!expected(route.auth, c)) continue;
        const r = await call(c, route.method, route.path);
        if (refusedByLayer(r.status, r.body)) wrong.push(`${route.method.toUpperCase()} ${route.path} [${route.auth}] ${c.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('/mcp (outside the route list) takes an API key only', async () => {
    const msg = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream' };
    for (const c of callers) {
      const r = await s.call('POST', '/mcp', { auth: c.auth, headers: { ...headers, ...c.headers }, body: msg });
      if (c.kind === 'apikey') expect(r.status, c.name).toBe(200);
      else expect(r.status, c.name).toBe(401);
    }
  });
});
