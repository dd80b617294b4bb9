import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from './testing.testkit';

let s: TestStudio;
const who: Record<string, string> = {};
let ws = 0;
const ids: Record<string, number> = {};

beforeAll(async () => {
  s = await startStudio();
  const owner = await s.register('owner@roles.test');
  ws = owner.ws;
  who.owner = owner.token;
  await s.call('POST', '/api/billing/plan', { auth: owner.token, body: { plan: 'pro' } });
  await s.grant(ws, 1000);
  for (const role of ['editor', 'viewer', 'client']) {
    const u = await s.register(`${role}@roles.test`);
    ids[role] = u.uid;
    await s.addMember(owner.token, `${role}@roles.test`, role as 'editor' | 'viewer' | 'client', u);
    const login = await s.call<{ token: string }>('POST', '/api/auth/login', { body: { email: `${role}@roles.test`, password: 'correct horse', workspace_id: ws } });
    who[role] = login.body.token;
  }
  ids.spare = (await s.register('spare@roles.test')).uid;
  who.apikey = await s.apiKey(owner.token);
});
afterAll(() => s.close());

type Expect = Record<'owner' | 'editor' | 'viewer' | 'client' | 'apikey', number>;
const WRITE: Expect = { owner: 200, editor: 200, viewer: 403, client: 403, apikey: 200 };
const OWNER: Expect = { owner: 200, editor: 403, viewer: 403, client: 403, apikey: 403 };
const AUTH: Expect = { owner: 200, editor: 200, viewer: 200, client: 200, apikey: 200 };

const cases: [string, string, () => unknown, Expect][] = [
  ['GET', '/api/me', () => undefined, AUTH],
  ['GET', '/api/billing', () => undefined, AUTH],
  ['GET', '/api/hf/catalog', () => undefined, AUTH],
  ['GET', '/api/hf/models', () => undefined, AUTH],
  ['GET', '/api/hf/presets', () => undefined, AUTH],
  ['POST', '/api/hf/quote', () => ({ model: 'studio/image-v1', prompt: 'q' }), AUTH],
  ['GET', '/api/posts', () => undefined, AUTH],
  ['GET', '/api/media', () => undefined, AUTH],
  ['GET', '/api/workspace/members', () => undefined, AUTH],
  ['POST', '/api/posts', () => ({ title: 't', body: 'b' }), WRITE],
  ['POST', '/api/hf/generate', () => ({ model: 'studio/image-v1', prompt: 'role check' }), WRITE],
  ['POST', '/api/influencers/analyze', () => ({ handle: '@tokyo_food' }), WRITE],
  ['GET', '/api/settings/api-keys', () => undefined, OWNER],
  ['POST', '/api/settings/api-keys', () => ({ name: 'k' }), OWNER],
  ['POST', '/api/billing/plan', () => ({ plan: 'pro' }), OWNER],
];

describe('role and API-key matrix', () => {
  for (const [method, path, body, expected] of cases) {
    it(`${method} ${path}: ${Object.entries(expected).map(([k, v]) => `${k} ${v}`).join(', ')}`, async () => {
      for (const [role, status] of Object.entries(expected)) {
        const r = await s.call(method, path, { auth: who[role], body: body() });
        expect({ role, status: r.status }).toEqual({ role, status });
        if (status === 403) {
          if (expected === WRITE) expect(r.body.error).toBe('read-only role');
          else if (role === 'apikey') expect(r.body.error).toMatch(/owner only|not allowed with an api key/);
          else expect(r.body.error).toBe('owner only');
        }
      }
    });
  }

  it('seat routes are owner-only; an API key can change neither seats nor keys nor billing', async () => {
    for (const role of ['editor', 'viewer', 'client', 'apikey']) {
      expect((await s.call('POST', '/api/workspace/members', { auth: who[role], body: { email: 'spare@roles.test', role: 'viewer' } })).status).toBe(403);
      expect((await s.call('PATCH', `/api/workspace/members/${ids.client}`, { auth: who[role], body: { role: 'editor' } })).status).toBe(403);
      expect((await s.call('DELETE', `/api/workspace/members/${ids.client}`, { auth: who[role] })).status).toBe(403);
      expect((await s.call('POST', '/api/settings/api-keys/key_x/revoke', { auth: who[role] })).status).toBe(403);
    }
    const keyTry = await s.call('POST', '/api/settings/api-keys', { auth: who.apikey, body: { name: 'escalate' } });
    expect(keyTry.status).toBe(403);
    const billingTry = await s.call('POST', '/api/billing/plan', { auth: who.apikey, body: { plan: 'business' } });
    expect(billingTry.status).toBe(403);
    expect((await s.call<{ plan: string }>('GET', '/api/billing', { auth: who.owner })).body.plan).toBe('pro');
  });

  it('the owner manages seats: role change, invitation of a new address, duplicate 409, cannot remove itself', async () => {
    const members = await s.call<{ members: { user_id: number; email: string; role: string }[] }>('GET', '/api/workspace/members', { auth: who.viewer });
    expect(members.body.members.map((m) => m.role)).toEqual(['owner', 'editor', 'viewer', 'client']);
    expect((await s.call('PATCH', `/api/workspace/members/${ids.client}`, { auth: who.owner, body: { role: 'viewer' } })).status).toBe(200);
    const invited = await s.call<{ invitation: { email: string; role: string } }>('POST', '/api/workspace/members', { auth: who.owner, body: { email: 'nobody@roles.test', role: 'viewer' } });
    expect(invited.status).toBe(200);
    expect(invited.body.invitation).toMatchObject({ email: 'nobody@roles.test', role: 'viewer' });
    expect((await s.call('POST', '/api/workspace/members', { auth: who.owner, body: { email: 'nobody@roles.test', role: 'viewer' } })).body.error).toBe('already invited');
    expect((await s.call('POST', '/api/workspace/members', { auth: who.owner, body: { email: 'editor@roles.test', role: 'viewer' } })).status).toBe(409);
    const owner = members.body.members.find((m) => m.role === 'owner')!;
    const self = await s.call('DELETE', `/api/workspace/members/${owner.user_id}`, { auth: who.owner });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('the owner cannot remove itself');
    expect((await s.call('POST', '/api/workspace/members', { auth: who.owner, body: { email: 'spare@roles.test', role: 'owner' } })).status).toBe(400);
  });
});
