import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentsApp } from '../app';
import { testAgentsConfig } from '../config.testkit';
import { Api, arr, startAgentsServer, str, type AgentsTestServer, type J } from '../harness.testkit';
import { webhookDispatcher } from './dispatcher';
import { startReceiver, type FakeReceiver } from './receiver.testkit';
import { verifySignature } from './sender';

let clock = Date.now();
const now = () => clock;
let t: AgentsTestServer;
let rx: FakeReceiver;
beforeAll(async () => {
  rx = await startReceiver();
  t = await startAgentsServer({}, { outbound: { allowPrivate: true, ca: rx.cert }, webhookWorker: false, now });
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const tick = () => webhookDispatcher(t.ctx).tick();
const json = (s: string) => JSON.parse(s) as J;

async function memberOf(owner: Api): Promise<Api> {
  const ws = str((await owner.get('/api/auth/me')).body.workspace.id);
  const other = await t.signup();
  const uid = str((await other.get('/api/auth/me')).body.user.id);
  await t.ctx.db.insertInto('members').values({ workspace_id: ws, user_id: uid, role: 'member', created_at: 0 }).execute();
  return other;
}

describe('POST /api/webhooks', () => {
  it('accepts public HTTPS endpoints with known events and refuses anything else, storing nothing', async () => {
    const prod = await startAgentsServer({}, { webhookWorker: false });
    try {
      const api = await prod.signup();
      expect((await api.post('/api/webhooks', { url: 'http://example.com/hook', events: ['lead.captured'] })).body).toEqual({ error: 'url must be https' });
      expect((await api.post('/api/webhooks', { url: 'https://127.0.0.1/hook', events: ['lead.captured'] })).body).toEqual({ error: 'url must be a public address' });
      expect((await api.post('/api/webhooks', { url: 'https://localhost/hook', events: ['lead.captured'] })).body).toEqual({ error: 'url must be a public address' });
      expect((await api.post('/api/webhooks', { url: 'https://169.254.169.254/latest', events: ['lead.captured'] })).body).toEqual({ error: 'url must be a public address' });
      expect((await api.post('/api/webhooks', { url: 'https://[::1]/x', events: ['lead.captured'] })).status).toBe(400);
      expect((await api.post('/api/webhooks', { events: ['lead.captured'] })).body).toEqual({ error: 'url is required' });
      expect((await api.post('/api/webhooks', { url: 'https://93.184.215.14/hook' })).body).toEqual({ error: 'events is required' });
      expect((await api.post('/api/webhooks', { url: 'https://93.184.215.14/hook', events: [] })).body).toEqual({ error: 'events: events must name at least one event' });
      expect((await api.post('/api/webhooks', { url: 'https://93.184.215.14/hook', events: ['order.paid'] })).status).toBe(400);
      expect((await api.get('/api/webhooks')).body.webhooks).toEqual([]);
      const ok = await api.post('/api/webhooks', { url: 'https://93.184.215.14/hook', events: ['lead.captured', 'lead.captured', 'message.created'] });
      expect(ok.status).toBe(200);
      expect(ok.body.webhook).toMatchObject({ url: 'https://93.184.215.14/hook', events: ['lead.captured', 'message.created'], agentId: null });
      expect(str(ok.body.webhook.id)).toMatch(/^whk_/);
      expect((await prod.api().get('/api/webhooks')).status).toBe(401);
    } finally {
      await prod.close();
    }
  });

  it('delivers lead.captured and its deprecated alias leads.submit, signed t=<unix>,v1=<hex> over timestamp.body', async () => {
    const { api, publicId, agentId } = await t.withAgent();
    const hook = await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured', 'leads.submit'] });
    expect(hook.body.webhook.agentId).toBe(agentId);
    const secret = str((await api.get('/api/webhooks/secret')).body.secret);
    rx.received.length = 0;
    expect((await t.api().post(`/api/public/${publicId}/lead`, { name: 'Hana', email: 'hana@example.com' })).status).toBe(200);
    expect(await tick()).toBe(2);
    expect(rx.received.map((r) => r.headers['x-service-event']).sort()).toEqual(['lead.captured', 'leads.submit']);
    for (const r of rx.received) {
      const sig = String(r.headers['x-service-signature']);
      expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(secret, sig, r.body, Math.floor(clock / 1000))).toBe(true);
      expect(verifySignature(secret, sig, r.body + ' ', Math.floor(clock / 1000))).toBe(false);
      expect(verifySignature(secret, sig, r.body, Math.floor(clock / 1000) + 301)).toBe(false);
      expect(verifySignature('whsec_other', sig, r.body, Math.floor(clock / 1000))).toBe(false);
      expect(json(r.body).data).toMatchObject({ name: 'Hana', email: 'hana@example.com', agentId });
      expect(String(r.headers['x-service-delivery'])).toMatch(/^evt_/);
    }
    const d = await api.get('/api/webhooks/deliveries');
    expect(arr(d.body.deliveries)).toHaveLength(2);
    expect(d.body.deliveries[0]).toMatchObject({ ok: true, status: 200, attempts: 1, state: 'delivered', error: null, url: rx.url });
    expect(Object.keys(d.body.deliveries[0])).toEqual(expect.arrayContaining(['id', 'delivery_id', 'event', 'url', 'status', 'ok', 'attempts', 'error', 'created_at']));
    expect(d.text).not.toContain('hana@example.com');
    expect(d.text).not.toContain(secret);
    expect(d.text).not.toContain('payload');
  });

  it('fires message.created and handoff.requested from chat, only to endpoints subscribed to them', async () => {
    const { api, publicId } = await t.withAgent();
    await api.post('/api/webhooks', { url: rx.url, events: ['handoff.requested'] });
    await api.post('/api/webhooks', { url: `${rx.url}?all`, events: ['message.created'] });
    rx.received.length = 0;
    const chat = await t.api().post(`/api/public/${publicId}/chat`, { message: 'I want to talk to a human please' });
    expect(chat.status).toBe(200);
    await tick();
    const events = rx.received.map((r) => `${String(r.headers['x-service-event'])} ${json(r.body).data.role ?? ''}`.trim());
    expect(events.sort()).toEqual(['handoff.requested', 'message.created assistant', 'message.created user']);
    // Another workspace's events never reach this workspace's endpoints.
    rx.received.length = 0;
    const other = await t.withAgent();
    await t.api().post(`/api/public/${other.publicId}/lead`, { email: 'x@example.com' });
    await tick();
    expect(rx.received).toHaveLength(0);
  });
});

describe('webhook queue', () => {
  it('retries a failed delivery with back-off, then delivers', async () => {
    const { api, publicId } = await t.withAgent();
    await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured'] });
    rx.received.length = 0;
    rx.answers.push(500, 503);
    await t.api().post(`/api/public/${publicId}/lead`, { email: 'retry@example.com' });
    await tick();
    let d = (await api.get('/api/webhooks/deliveries')).body.deliveries[0];
    expect(d).toMatchObject({ state: 'pending', ok: false, status: 500, attempts: 1, error: 'receiver answered 500' });
    expect(Date.parse(str(d.next_attempt_at)) - clock).toBe(10_000);
    expect(await tick()).toBe(0);
    clock += 10_000;
    await tick();
    d = (await api.get('/api/webhooks/deliveries')).body.deliveries[0];
    expect(d).toMatchObject({ state: 'pending', status: 503, attempts: 2 });
    clock += 60_000;
    await tick();
    d = (await api.get('/api/webhooks/deliveries')).body.deliveries[0];
    expect(d).toMatchObject({ state: 'delivered', ok: true, status: 200, attempts: 3, error: null, next_attempt_at: null });
    expect(new Set(rx.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
  });

  it('gives up after the last retry and keeps the record', async () => {
    const { api, publicId } = await t.withAgent();
    await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured'] });
    rx.answers.push(500, 500, 500, 500, 500, 500);
    await t.api().post(`/api/public/${publicId}/lead`, { email: 'never@example.com' });
    for (const wait of [0, 10, 60, 300, 1800, 7200]) {
      clock += wait * 1000;
      await tick();
    }
    const d = (await api.get('/api/webhooks/deliveries')).body.deliveries[0];
    expect(d).toMatchObject({ state: 'failed', ok: false, attempts: 6, status: 500 });
    expect((await api.get('/api/webhooks/secret')).body.retries).toBe(5);
  });

  it('keeps a delivery after a restart and delivers it from the new process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agents-restart-'));
    const start = async () => {
      const a = await createAgentsApp({ config: testAgentsConfig(dir, { trustProxy: 1 }), log: () => {}, outbound: { allowPrivate: true, ca: rx.cert }, webhookWorker: false, now });
      const server: Server = await new Promise((resolve) => {
        const s = a.app.listen(0, '127.0.0.1', () => resolve(s));
      });
      const addr = server.address();
      const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      return { ...a, base, stop: async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); await a.close(); } };
    };
    try {
      const first = await start();
      const reg = await new Api(first.base).post('/api/auth/register', { email: 'restart@example.com', password: 'secret-pass' });
      const api = new Api(first.base, str(reg.body.token));
      const agent = await api.post('/api/agents', { name: 'Restart' });
      await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured'] });
      rx.answers.push(500);
      await new Api(first.base).post(`/api/public/${str(agent.body.agent.public_id)}/lead`, { email: 'r@example.com' });
      await webhookDispatcher(first.ctx).tick();
      await first.stop();

      rx.received.length = 0;
      const second = await start();
      clock += 10_000;
      expect(await webhookDispatcher(second.ctx).tick()).toBe(1);
      expect(rx.received).toHaveLength(1);
      const d = (await new Api(second.base, api.token).get('/api/webhooks/deliveries')).body.deliveries[0];
      expect(d).toMatchObject({ state: 'delivered', attempts: 2 });
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two processes polling one database send each delivery exactly once', async () => {
    const { api, publicId } = await t.withAgent();
    await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured'] });
    // A second process on the same database (the same SQLite file, or the same PostgreSQL database).
    const other = await createAgentsApp({ config: t.ctx.config, log: () => {}, outbound: { allowPrivate: true, ca: rx.cert }, webhookWorker: false, now });
    try {
      await tick();
      rx.received.length = 0;
      for (let i = 0; i < 6; i++) await t.api().post(`/api/public/${publicId}/lead`, { email: `both${i}@example.com` });
      // PostgreSQL: both poll at once. SQLite: two connections in one process cannot both hold a write transaction
      // (the second would wait on the thread the first needs), so the second process polls right after the first.
      const [mine, theirs] = t.ctx.database.dialect === 'postgres'
        ? await Promise.all([tick(), webhookDispatcher(other.ctx).tick()])
        : [await tick(), await webhookDispatcher(other.ctx).tick()];
      expect(mine + theirs).toBe(6);
      expect(rx.received).toHaveLength(6);
      expect(new Set(rx.received.map((r) => json(r.body).data.email)).size).toBe(6);
      const d = arr((await api.get('/api/webhooks/deliveries')).body.deliveries);
      expect(d).toHaveLength(6);
      expect(d.map((x) => `${String(x.state)} ${String(x.attempts)}`)).toEqual(Array(6).fill('delivered 1'));
    } finally {
      await other.close();
    }
  });

  it('verifies the receiver certificate: an untrusted self-signed receiver is a failed attempt', async () => {
    const strict = await startAgentsServer({}, { outbound: { allowPrivate: true }, webhookWorker: false });
    try {
      const api = await strict.signup();
      const hook = await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured'] });
      const r = await api.post(`/api/webhooks/${str(hook.body.webhook.id)}/test`);
      expect(r.body.ok).toBe(false);
      expect(r.body.delivery).toMatchObject({ ok: false, status: null, attempts: 1, state: 'pending' });
      expect(str(r.body.delivery.error)).toMatch(/certificate/i);
    } finally {
      await strict.close();
    }
  });

  it('connects only to the address it checked: a host resolving to a private address is refused at send time', async () => {
    const prod = await startAgentsServer({}, { webhookWorker: false, now });
    try {
      const api = await prod.signup();
      // An endpoint stored earlier whose name now resolves inside (rebinding) is refused before connecting.
      const ws = str((await api.get('/api/auth/me')).body.workspace.id);
      await prod.ctx.db.insertInto('webhooks').values({ id: 'whk_rebind', workspace_id: ws, agent_id: null, url: 'https://localhost/x', events: '["lead.captured"]', created_at: 0 }).execute();
      const r = await api.post('/api/webhooks/whk_rebind/test');
      expect(r.body.delivery).toMatchObject({ ok: false, error: 'url must be a public address', status: null });
    } finally {
      await prod.close();
    }
  });
});

describe('webhook routes', () => {
  it('GET /api/webhooks/secret is owner-only with the scheme; other roles get 403 {error, role, required}', async () => {
    const { api } = await t.withAgent();
    const s = await api.get('/api/webhooks/secret');
    expect(str(s.body.secret)).toMatch(/^whsec_[0-9a-z]{32}$/);
    expect(s.body.scheme).toEqual({
      header: 'X-SERVICE-Signature', format: 't=<unix>,v1=<hex>', algorithm: 'HMAC-SHA256', signedPayload: '<t>.<raw request body>', toleranceSeconds: 300,
      headers: ['X-SERVICE-Signature', 'X-SERVICE-Event', 'X-SERVICE-Delivery', 'Content-Type'], retries: 5, retryDelaysSeconds: [10, 60, 300, 1800, 7200],
    });
    expect(s.body).toMatchObject({ header: 'X-SERVICE-Signature', toleranceSeconds: 300, retries: 5 });
    expect((await api.get('/api/webhooks/secret')).body.secret).toBe(s.body.secret);
    const member = await memberOf(api);
    const denied = await member.get('/api/webhooks/secret');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'workspace owner only', role: 'member', required: 'owner' });
    // Any member reads the delivery log and the list.
    expect((await member.get('/api/webhooks/deliveries')).status).toBe(200);
    expect((await member.get('/api/webhooks')).status).toBe(200);
    expect((await t.api().get('/api/webhooks/secret')).status).toBe(401);
  });

  it('POST /api/webhooks/{id}/test sends a signed sample event now', async () => {
    const { api } = await t.withAgent();
    const hook = await api.post('/api/webhooks', { url: rx.url, events: ['message.created'] });
    rx.received.length = 0;
    const r = await api.post(`/api/webhooks/${str(hook.body.webhook.id)}/test`);
    expect(r.body).toMatchObject({ ok: true, delivery: { event: 'webhook.test', ok: true, status: 200, attempts: 1, state: 'delivered' } });
    expect(rx.received).toHaveLength(1);
    expect(json(rx.received[0].body)).toMatchObject({ event: 'webhook.test', data: { webhookId: hook.body.webhook.id } });
    expect((await api.post('/api/webhooks/whk_missing/test')).body).toEqual({ error: 'webhook not found' });
  });

  it('lists per agent, deletes (other workspaces get 404) and cancels pending deliveries', async () => {
    const { api, agentId, publicId } = await t.withAgent();
    const second = str((await api.post('/api/agents', { name: 'Second' })).body.agent.id);
    const a = await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured'] });
    await api.post('/api/webhooks', { url: rx.url, events: ['lead.captured'], agentId: second });
    expect(arr((await api.get('/api/webhooks')).body.webhooks)).toHaveLength(2);
    expect(arr((await api.get(`/api/webhooks?agent=${agentId}`)).body.webhooks).map((w) => w.id)).toEqual([a.body.webhook.id]);
    expect((await api.get('/api/webhooks?agent=agt_nope')).status).toBe(404);
    const id = str(a.body.webhook.id);
    rx.answers.push(500);
    await t.api().post(`/api/public/${publicId}/lead`, { email: 'gone@example.com' });
    await tick();
    const stranger = await t.signup();
    expect((await stranger.del(`/api/webhooks/${id}`)).body).toEqual({ error: 'webhook not found' });
    expect((await api.del(`/api/webhooks/${id}`)).body).toEqual({ ok: true });
    expect((await api.del(`/api/webhooks/${id}`)).status).toBe(404);
    const d = (await api.get('/api/webhooks/deliveries')).body.deliveries[0];
    expect(d).toMatchObject({ state: 'cancelled', error: 'webhook deleted' });
    expect(arr((await api.get('/api/webhooks/deliveries?limit=0')).body.deliveries ?? [])).toHaveLength(0);
  });
});
