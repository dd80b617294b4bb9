/**
 * Role × route matrix of the agent platform, generated from the routes' `auth` declarations and the rule in
 * roles.ts: for every mounted route and every kind of caller, a caller the rule allows gets past the
 * authorization layer, every other caller gets 401/403 from the layer, and the refused calls change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, type Api, type AgentsTestServer } from './harness.testkit';
import { AGENT_ACCESS, type AgentAuth } from './request';
import { allows } from './roles';
import { joinAs, operator, snapshot, changedRows } from './attacks/team.testkit';
import { mountAgentRoutes, type AgentRoute } from './http';
import type { AgentsContext } from './context';
import express from 'express';

let t: AgentsTestServer;
interface Who {
  name: string;
  api: Api;
  caller: { userId: string; role: string; admin: boolean };
}
const callers: Who[] = [];

beforeAll(async () => {
  // no webhook worker: its tick marks the chat's events delivered, a change between two snapshots nobody made
  t = await startAgentsServer({}, { webhookWorker: false });
  const owner = await t.withAgent('Matrix');
  const member = await joinAs(t, owner.api, 'member');
  const viewer = await joinAs(t, owner.api, 'viewer');
  const op = await operator(t);
  callers.push(
    { name: 'no session', api: t.api(), caller: { userId: '', role: '', admin: false } },
    { name: 'viewer', api: viewer.api, caller: { userId: viewer.userId, role: 'viewer', admin: false } },
    { name: 'member (editor)', api: member.api, caller: { userId: member.userId, role: 'member', admin: false } },
    { name: 'owner', api: owner.api, caller: { userId: 'owner', role: 'owner', admin: false } },
    { name: 'operator', api: op.api, caller: { userId: op.userId, role: 'owner', admin: true } },
  );
}, 120_000);
afterAll(() => t.close());

const fill = (path: string) => path.replace(/:([A-Za-z]+)/g, 'matrix-x');
/** A refusal by the layer: 401 without a session, 403 naming the declared access. */
function refusedByLayer(auth: AgentAuth, status: number, body: { error?: unknown; required?: unknown } | null): boolean {
  if (status === 401) return true;
  if (status !== 403 || !body) return false;
  return auth === 'operator' ? body.error === 'admin only' : body.required === auth;
}

describe('role × route matrix (agents)', () => {
  it('every route declares one access of the table; refusals are generated for each', () => {
    expect(t.routes.length).toBeGreaterThan(190);
    const undeclared = t.routes.filter((r) => !(AGENT_ACCESS as readonly string[]).includes(r.auth)).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(undeclared).toEqual([]);
    const counts = Object.fromEntries(AGENT_ACCESS.map((a) => [a, t.routes.filter((r) => r.auth === a).length]));
    for (const a of AGENT_ACCESS) expect(counts[a], a).toBeGreaterThan(0);
  });

  it('a route without a declaration (or with an unknown one) cannot be mounted', () => {
    const rogue = { method: 'post', path: '/api/agents/rogue', handler: () => ({}) } as unknown as AgentRoute;
    expect(() => mountAgentRoutes(express.Router(), {} as AgentsContext, [rogue])).toThrow('route without a valid auth declaration: POST /api/agents/rogue');
    const unknown = { ...rogue, auth: 'anyone' } as unknown as AgentRoute;
    expect(() => mountAgentRoutes(express.Router(), {} as AgentsContext, [unknown])).toThrow('POST /api/agents/rogue');
  });

  it('every write by a viewer outside its own account is refused (viewers only read)', () => {
    const ownAccount = (p: string) => p.startsWith('/api/auth/') || p.startsWith('/api/support/') || p === '/api/workspaces/switch' || p === '/api/workspace/members/:mid' || p === '/api/workspace/invitations/accept';
    const open = t.routes.filter((r) => r.method !== 'get' && r.auth === 'bearer' && !ownAccount(r.path)).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(open).toEqual([]);
  });

  it('refuses every caller the rule does not allow with 401/403, and those calls change nothing', async () => {
    const wrong: string[] = [];
    const before = await snapshot(t);
    for (const route of t.routes) {
      if (route.auth === 'public') continue;
      for (const c of callers) {
        if (allows(route.auth, c.caller)) continue;
        const res = await c.api.request(route.method.toUpperCase(), fill(route.path), route.method === 'get' ? undefined : {});
        const body = res.body as { error?: unknown; required?: unknown } | null;
        const expected = c.caller.userId === '' ? 401 : 403;
        if (res.status !== expected || !refusedByLayer(route.auth, res.status, body)) wrong.push(`${route.method.toUpperCase()} ${route.path} [${route.auth}] ${c.name}: ${res.status} ${res.text.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(changedRows(before, await snapshot(t))).toEqual([]);
  }, 600_000);

  it('lets every caller the rule allows past the layer', async () => {
    const wrong: string[] = [];
    for (const route of t.routes) {
      // public routes: anyone (provider callbacks verify their own signatures instead)
      if (route.auth === 'public') continue;
      // a password change, logout or removal would end the session the next rows need
      if (route.path === '/api/auth/password' || route.path === '/api/workspace/members/:mid') continue;
      for (const c of callers) {
        if (!allows(route.auth, c.caller)) continue;
        const res = await c.api.request(route.method.toUpperCase(), fill(route.path), route.method === 'get' ? undefined : {});
        if (refusedByLayer(route.auth, res.status, res.body as { error?: unknown; required?: unknown } | null)) {
          wrong.push(`${route.method.toUpperCase()} ${route.path} [${route.auth}] ${c.name}: ${res.status} ${res.text.slice(0, 80)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});
