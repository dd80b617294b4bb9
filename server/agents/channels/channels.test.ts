import { existsSync, readFileSync } from 'node:fs';
import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { GOOD, startFakeProviders, type FakeProviders } from './fake-providers.testkit';
import { createSecretBox } from './secret-box';
import { webhookDispatcher } from '../webhooks/dispatcher';
import { countAll } from '../sql';

let t: AgentsTestServer;
let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
  t = await startAgentsServer({ providerUrls: fake.urls, allowPrivateFetch: allowOnlyHostsOf(...Object.values(fake.urls)) }, { webhookWorker: false });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('/api/channels', () => {
  it('lists the catalog with per-agent state and no secrets', async () => {
    const { api, agentId } = await t.withAgent();
    const r = await api.get('/api/channels');
    expect(r.body.agentId).toBe(agentId);
    expect(arr(r.body.channels).map((c) => c.id)).toEqual(['web', 'slack', 'whatsapp']);
    expect(r.body.channels[1]).toMatchObject({ id: 'slack', connected: false, enabled: false, status: 'disconnected', account: null, fields: [{ name: 'botToken', secret: true }] });
    expect((await t.api().get('/api/channels')).status).toBe(401);
  });

  it('validates credentials live, stores them encrypted, tests, toggles, configures and disconnects', async () => {
    const { api } = await t.withAgent();
    expect((await api.post('/api/channels/slack/connect', {})).body).toEqual({ error: 'botToken is required' });
    expect((await api.post('/api/channels/slack/connect', { botToken: 'nope' })).body).toEqual({ error: 'botToken: must be a bot token (xoxb-…)' });
    expect((await api.post('/api/channels/slack/connect', { botToken: 'xoxb-wrong' })).body).toEqual({ error: 'Slack refused the credentials (invalid_auth)' });
    expect((await api.get('/api/channels')).body.channels[1].connected).toBe(false);
    expect((await api.post('/api/channels/fax/connect', { x: 1 })).body).toEqual({ error: 'unknown channel' });
    expect((await api.post('/api/channels/web/connect', {})).status).toBe(400);

    const c = await api.post('/api/channels/slack/connect', { botToken: GOOD.slack });
    expect(c.body.channel).toMatchObject({ id: 'slack', connected: true, enabled: true, status: 'connected', account: { team_id: 'T0001', team: 'Acme', bot_user_id: 'UBOT' } });
    expect(c.text).not.toContain(GOOD.slack);
    expect((await api.get('/api/channels')).text).not.toContain(GOOD.slack);
    const stored = await t.ctx.db.selectFrom('channel_connections').select('credentials').where('channel', '=', 'slack').executeTakeFirstOrThrow();
    expect(stored.credentials).toMatch(/^v1:/);
    expect(stored.credentials).not.toContain(GOOD.slack);
    const key = readFileSync(join(t.dir, 'secrets.key'), 'utf8');
    expect(JSON.parse(createSecretBox(Buffer.from(key, 'hex')).open(stored.credentials))).toEqual({ botToken: GOOD.slack });

    expect((await api.post('/api/channels/slack/test')).body).toMatchObject({ ok: true, error: null, channel: { status: 'connected' } });
    expect((await api.patch('/api/channels/slack', { enabled: false, config: { replyInThread: true } })).body.channel).toMatchObject({ enabled: false, config: { replyInThread: true } });
    expect((await api.patch('/api/channels/slack', { enabled: 'yes' })).status).toBe(400);
    expect((await api.patch('/api/channels/slack', { disconnect: true })).body.channel).toMatchObject({ connected: false, status: 'disconnected' });
    expect(await t.ctx.db.selectFrom('channel_connections').select(countAll().as('n')).where('channel', '=', 'slack').executeTakeFirst()).toEqual({ n: 0 });
    expect((await api.post('/api/channels/slack/test')).body).toEqual({ error: 'channel is not connected' });
    expect((await api.patch('/api/channels/slack', { enabled: true })).body).toEqual({ error: 'channel is not connected' });
  });

  it('a connected channel whose credentials were revoked tests as error', async () => {
    const { api, agentId } = await t.withAgent();
    await api.post('/api/channels/whatsapp/connect', { accessToken: GOOD.whatsapp, phoneNumberId: '1000001' });
    expect((await api.post('/api/channels/whatsapp/connect', { accessToken: 'bad', phoneNumberId: '1000001' })).body).toEqual({ error: 'WhatsApp refused the credentials (Invalid OAuth access token)' });
    // Still the earlier, valid credentials: the refused ones were not stored.
    expect((await api.post(`/api/channels/whatsapp/test?agent=${agentId}`)).body.ok).toBe(true);
    const box = createSecretBox(Buffer.from(readFileSync(join(t.dir, 'secrets.key'), 'utf8'), 'hex'));
    await t.ctx.db.updateTable('channel_connections').set({ credentials: box.seal(JSON.stringify({ accessToken: 'revoked', phoneNumberId: '1000001' })) }).where('agent_id', '=', agentId).where('channel', '=', 'whatsapp').execute();
    const r = await api.post('/api/channels/whatsapp/test');
    expect(r.body).toMatchObject({ ok: false, error: 'WhatsApp refused the credentials (Invalid OAuth access token)', channel: { status: 'error' } });
  });

  it('takes the key from AGENTS_SECRETS_KEY when set (no key file written)', async () => {
    const key = 'ab'.repeat(32);
    const t2 = await startAgentsServer({ providerUrls: fake.urls, allowPrivateFetch: allowOnlyHostsOf(...Object.values(fake.urls)), secretsKey: key }, { webhookWorker: false });
    try {
      const { api } = await t2.withAgent();
      await api.post('/api/integrations/hubspot/connect', { accessToken: GOOD.hubspot });
      const row = await t2.ctx.db.selectFrom('integrations').select('credentials').executeTakeFirstOrThrow();
      expect(JSON.parse(createSecretBox(Buffer.from(key, 'hex')).open(row.credentials))).toEqual({ accessToken: GOOD.hubspot });
      expect(existsSync(join(t2.dir, 'secrets.key'))).toBe(false);
    } finally {
      await t2.close();
    }
  });
});

describe('/api/integrations', () => {
  it('catalog without secrets; connect validates live and stores encrypted; test; disconnect', async () => {
    const api = await t.signup();
    const list = await api.get('/api/integrations');
    expect(arr(list.body.integrations).map((i) => i.provider)).toEqual(['hubspot', 'pipedrive']);
    expect(list.body.integrations[0]).toMatchObject({ connected: false, status: 'disconnected' });
    expect((await api.post('/api/integrations/hubspot/connect', {})).body).toEqual({ error: 'accessToken is required' });
    expect((await api.post('/api/integrations/hubspot/connect', { accessToken: 'nope' })).body).toEqual({ error: 'HubSpot refused the credentials (Authentication credentials not found)' });
    expect((await api.post('/api/integrations/pipedrive/connect', { apiToken: 'nope' })).body).toEqual({ error: 'Pipedrive refused the credentials (unauthorized access)' });
    expect((await api.post('/api/integrations/salesforce/connect', {})).body).toEqual({ error: 'unknown integration' });
    const c = await api.post('/api/integrations/pipedrive/connect', { apiToken: GOOD.pipedrive });
    expect(c.body.integration).toMatchObject({ provider: 'pipedrive', connected: true, status: 'connected', account: { name: 'Aki', email: 'aki@example.com', company: 'Acme' } });
    expect((await api.get('/api/integrations')).text).not.toContain(GOOD.pipedrive);
    expect(JSON.stringify(await t.ctx.db.selectFrom('integrations').selectAll().execute())).not.toContain(GOOD.pipedrive);
    expect((await api.post('/api/integrations/pipedrive/test')).body).toMatchObject({ ok: true, integration: { status: 'connected' } });
    expect((await api.post('/api/integrations/hubspot/test')).body).toEqual({ error: 'integration is not connected' });
    expect((await api.post('/api/integrations/pipedrive/disconnect')).body.integration).toMatchObject({ connected: false });
    expect((await api.post('/api/integrations/pipedrive/disconnect')).body).toEqual({ error: 'integration is not connected' });
    // Another workspace never sees this one's connections.
    await api.post('/api/integrations/hubspot/connect', { accessToken: GOOD.hubspot });
    expect((await (await t.signup()).get('/api/integrations')).body.integrations[0].connected).toBe(false);
  });

  it('pushes a captured lead to every connected CRM once and records the outcome', async () => {
    const { api, publicId } = await t.withAgent();
    await api.post('/api/integrations/hubspot/connect', { accessToken: GOOD.hubspot });
    await api.post('/api/integrations/pipedrive/connect', { apiToken: GOOD.pipedrive });
    fake.sent.length = 0;
    await t.api().post(`/api/public/${publicId}/lead`, { name: 'Hana Sato', email: 'hana@example.com', phone: '090-0000-1111' });
    await webhookDispatcher(t.ctx).tick();
    await Promise.allSettled([...t.ctx.background]);
    expect(fake.sent.map((s) => `${s.provider} ${s.path}`).sort()).toEqual(['hubspot /crm/v3/objects/contacts', 'pipedrive /persons']);
    expect(fake.sent.find((s) => s.provider === 'hubspot')?.body).toEqual({ properties: { email: 'hana@example.com', firstname: 'Hana', lastname: 'Sato', phone: '090-0000-1111' } });
    expect(fake.sent.find((s) => s.provider === 'pipedrive')).toMatchObject({ auth: GOOD.pipedrive, body: { name: 'Hana Sato', email: ['hana@example.com'], phone: ['090-0000-1111'] } });
    const list = (await api.get('/api/integrations')).body.integrations;
    expect(arr(list).every((i) => i.last_sync_at !== null && i.last_sync_error === null)).toBe(true);
  });

  it('an unreachable provider is a clear 400 and nothing is stored', async () => {
    const t2 = await startAgentsServer({ providerUrls: { ...fake.urls, hubspot: 'http://127.0.0.1:9/hubspot' }, allowPrivateFetch: true }, { webhookWorker: false });
    try {
      const api = await t2.signup();
      const r = await api.post('/api/integrations/hubspot/connect', { accessToken: GOOD.hubspot });
      expect(r.status).toBe(400);
      expect(str(r.body.error)).toMatch(/^provider unreachable/);
      expect((await api.get('/api/integrations')).body.integrations[0].connected).toBe(false);
    } finally {
      await t2.close();
    }
  });
});

describe('/api/actions', () => {
  it('lists the catalog per agent, toggles and saves config with checks', async () => {
    const { api, agentId } = await t.withAgent();
    const list = await api.get('/api/actions');
    expect(arr(list.body.actions).map((a) => a.type)).toEqual(['collect_leads', 'human_handoff', 'book_meeting', 'custom_api']);
    expect(list.body.actions[0]).toMatchObject({ enabled: false, config: { fields: ['name', 'email'] } });
    expect((await api.post('/api/actions/collect_leads/toggle', { enabled: true })).body.action).toMatchObject({ type: 'collect_leads', enabled: true });
    expect((await api.post('/api/actions/collect_leads/toggle', {})).body).toEqual({ error: 'enabled is required' });
    expect((await api.post('/api/actions/book_meeting/toggle', { enabled: true })).body).toEqual({ error: 'config.url is required before book_meeting can be enabled' });
    expect((await api.post('/api/actions/book_meeting/config', { config: { url: 'http://cal.example.com' } })).body).toEqual({ error: 'config.url: must be an https address' });
    expect((await api.post('/api/actions/book_meeting/config', { config: { colour: 1 } })).status).toBe(400);
    const saved = await api.post('/api/actions/book_meeting/config', { config: { url: 'https://cal.example.com/aki' }, enabled: true });
    expect(saved.body.action).toMatchObject({ enabled: true, config: { url: 'https://cal.example.com/aki', label: '' } });
    expect((await api.post('/api/actions/book_meeting/config', { config: { label: '予約' } })).body.action).toMatchObject({ enabled: true, config: { url: 'https://cal.example.com/aki', label: '予約' } });
    expect((await api.post('/api/actions/teleport/toggle', { enabled: true })).body).toEqual({ error: 'unknown action' });
    const states = (await api.get(`/api/actions?agent=${agentId}`)).body.actions;
    expect(arr(states).filter((a) => a.enabled).map((a) => a.type)).toEqual(['collect_leads', 'book_meeting']);
    const second = str((await api.post('/api/agents', { name: 'Two' })).body.agent.id);
    expect(arr((await api.get(`/api/actions?agent=${second}`)).body.actions).some((a) => a.enabled)).toBe(false);
  });
});
