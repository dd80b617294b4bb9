import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P, PLATFORM_WS } from '../platform-collections';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { DEVICES } from '../devices/devices.service';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A browser with its own anonymous workspace put on `planKey`, holding `devices` devices. */
async function tenant(planKey: string, devices: number): Promise<{ c: Client; ws: string }> {
  const c = server.client();
  expect((await c.get('/api/devices')).status).toBe(200);
  const ws = c.workspaceId() as string;
  await server.store.transact(PLATFORM_WS, (tx) => tx.patch(P.tenants, ws, { planKey }));
  await server.store.transact(ws, async (tx) => {
    const all = await tx.list(DEVICES);
    for (const d of all.slice(devices)) await tx.remove(DEVICES, String(d.imei));
  });
  expect(await server.store.count(ws, DEVICES)).toBe(devices);
  return { c, ws };
}

describe('plan limits of central tenants', () => {
  it('refuses a bulk registration that would pass the device limit as a whole, and fills up to it', async () => {
    const { c, ws } = await tenant('starter', 95);
    const over = await c.post<Body>('/api/devices/bulk', { qty: 10 });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ error: 'plan_limit', resource: 'devices', limit: 100, current: 95, planKey: 'starter' });
    expect(over.body.message).toBe('starter プランの端末上限（100）を超えます');
    expect(await server.store.count(ws, DEVICES)).toBe(95);
    expect((await c.post<Body>('/api/devices/bulk', { qty: 5 })).status).toBe(200);
    expect(await server.store.count(ws, DEVICES)).toBe(100);
    const one = await c.post<Body>('/api/device', { imei: '490154203237518' });
    expect(one.body).toMatchObject({ error: 'plan_limit', current: 100 });
    expect(await server.store.get(ws, DEVICES, '490154203237518')).toBeNull();
  });

  it('lets edits through at the limit, and a removal frees a place', async () => {
    const { c } = await tenant('starter', 100);
    const list = await c.get<{ devices: { imei: string }[] }>('/api/devices');
    const [first, second] = list.body.devices;
    expect((await c.post<Body>(`/api/device/${first?.imei}`, { note: 'checked' })).status).toBe(200);
    expect((await c.post<Body>('/api/device', {})).status).toBe(403);
    expect((await c.post<Body>(`/api/device/${second?.imei}/delete`)).status).toBe(200);
    expect((await c.post<Body>('/api/device', {})).status).toBe(200);
  });

  it('admits exactly one of several concurrent registrations for the last place', async () => {
    const { c, ws } = await tenant('starter', 99);
    const answers = await Promise.all(Array.from({ length: 6 }, () => c.post<Body>('/api/device', {})));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403, 403, 403, 403]);
    expect(await server.store.count(ws, DEVICES)).toBe(100);
  });

  it('counts team members and customers against their limits', async () => {
    const { c } = await tenant('starter', 0);
    for (const name of ['A', 'B', 'C']) expect((await c.post<Body>('/api/team/member', { name })).status).toBe(200);
    const fourth = await c.post<Body>('/api/team/member', { name: 'D' });
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ error: 'plan_limit', resource: 'members', limit: 3, current: 3 });
    expect((await c.get<{ members: unknown[] }>('/api/team/members')).body.members).toHaveLength(3);
  });

  it('leaves workspaces without a plan and the enterprise plan unlimited', async () => {
    const { c, ws } = await tenant('enterprise', 150);
    expect((await c.post<Body>('/api/devices/bulk', { qty: 20 })).status).toBe(200);
    expect(await server.store.count(ws, DEVICES)).toBe(170);
    const anon = server.client();
    expect((await anon.post<Body>('/api/devices/bulk', { qty: 20 })).status).toBe(200);
  });
});

describe('a standalone bench', () => {
  it('has no plan', async () => {
    const bench = await startTestServer({ mode: 'bench' });
    try {
      const ws = bench.ctx.benchWorkspace as string;
      await bench.store.transact(PLATFORM_WS, (tx) => tx.put(P.tenants, ws, { id: ws, planKey: 'starter' }));
      expect(await bench.store.count(ws, DEVICES)).toBeGreaterThan(100);
      expect((await bench.client().post<Body>('/api/devices/bulk', { qty: 3 })).status).toBe(200);
    } finally {
      await bench.close();
    }
  });
});
