import { createHmac } from 'node:crypto';
import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { GOOD, startFakeProviders, type FakeProviders } from '../channels/fake-providers.testkit';

const SLACK_SECRET = 'slack-signing-secret-for-tests';
const WA_SECRET = 'wa-app-secret-for-tests';
let t: AgentsTestServer;
let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
  t = await startAgentsServer({ providerUrls: fake.urls, allowPrivateFetch: allowOnlyHostsOf(...Object.values(fake.urls)), slackSigningSecret: SLACK_SECRET, whatsappVerifyToken: 'verify-me', whatsappAppSecret: WA_SECRET }, { webhookWorker: false });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const settle = () => Promise.allSettled([...t.ctx.background]);
const unix = () => Math.floor(Date.now() / 1000);
function slackHeaders(body: string, ts = unix(), secret = SLACK_SECRET) {
  const sig = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
  return { 'x-slack-request-timestamp': String(ts), 'x-slack-signature': sig, 'content-type': 'application/json' };
}
let n = 0;
const slackEvent = (text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'event_callback', team_id: 'T0001', event_id: `Ev${++n}`, event: { type: 'message', channel: 'C42', user: 'U7', text, ts: `1700000000.00${n}`, ...extra } });

describe('POST /api/slack/events', () => {
  it('answers url_verification with the challenge when signed', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'ch-123' });
    const r = await t.api().post('/api/slack/events', body, slackHeaders(body));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ challenge: 'ch-123' });
  });

  it('refuses a bad signature, a stale timestamp, a missing signature and a replay', async () => {
    // Timestamps 400 s off (the window is 300 s): a request slowed by a busy machine cannot slip back inside it.
    const body = JSON.stringify({ type: 'url_verification', challenge: 'x' });
    expect((await t.api().post('/api/slack/events', body, slackHeaders(body, unix(), 'wrong-secret'))).body).toEqual({ error: 'bad signature' });
    const tampered = slackHeaders(body);
    expect((await t.api().post('/api/slack/events', body.replace('x', 'y'), tampered)).body).toEqual({ error: 'bad signature' });
    const stale = await t.api().post('/api/slack/events', body, slackHeaders(body, unix() - 400));
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ error: 'stale request' });
    expect((await t.api().post('/api/slack/events', body, slackHeaders(body, unix() + 400))).body).toEqual({ error: 'stale request' });
    expect((await t.api().post('/api/slack/events', body, { 'content-type': 'application/json' })).body).toEqual({ error: 'missing signature' });
    const once = slackHeaders(body);
    expect((await t.api().post('/api/slack/events', body, once)).status).toBe(200);
    const replay = await t.api().post('/api/slack/events', body, once);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: 'replayed request' });
  });

  it('answers 503 while SLACK_SIGNING_SECRET is unset', async () => {
    const t2 = await startAgentsServer({}, { webhookWorker: false });
    try {
      const body = '{}';
      expect((await t2.api().post('/api/slack/events', body, slackHeaders(body))).body).toEqual({ error: 'team-chat callbacks not configured' });
      expect((await t2.api().get('/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1')).status).toBe(503);
      expect((await t2.api().post('/api/whatsapp/webhook', body, { 'x-hub-signature-256': 'sha256=00' })).status).toBe(503);
    } finally {
      await t2.close();
    }
  });

  it('a message in a connected workspace is answered in its thread; the operator reply goes back there', async () => {
    const { api, agentId } = await t.withAgent();
    await api.post('/api/sources', { type: 'qa', name: 'hours', question: 'What are your opening hours?', answer: 'We are open 9 to 18 on weekdays.' });
    expect((await api.post('/api/channels/slack/connect', { botToken: GOOD.slack })).status).toBe(200);
    fake.sent.length = 0;
    const body = slackEvent('What are your opening hours?');
    const firstTs = unix();
    expect((await t.api().post('/api/slack/events', body, slackHeaders(body, firstTs))).body).toEqual({ ok: true });
    await settle();
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({ provider: 'slack', path: '/chat.postMessage', auth: `Bearer ${GOOD.slack}`, body: { channel: 'C42', thread_ts: `1700000000.00${n}` } });
    expect(String(fake.sent[0].body.text)).toContain('9 to 18');
    const convs = await api.get(`/api/conversations?agent=${agentId}&channel=slack`);
    const cid = str(convs.body.conversations[0].id);
    expect(convs.body.conversations[0].channel).toBe('slack');

    // Slack retries the same event id: handled once.
    const again = await t.api().post('/api/slack/events', body, slackHeaders(body, firstTs - 1));
    expect(again.body).toEqual({ ok: true, duplicate: true });
    // The bot's own messages are not answered.
    const bot = slackEvent('echo', { bot_id: 'B1', thread_ts: `1700000000.00${n - 1}` });
    await t.api().post('/api/slack/events', bot, slackHeaders(bot));
    await settle();
    expect(fake.sent).toHaveLength(1);

    const reply = await api.post(`/api/conversations/${cid}/reply`, { text: '担当の田中です。ご質問ありがとうございます。' });
    expect(reply.body.delivery).toEqual({ channel: 'slack', delivered: true, error: null });
    expect(fake.sent[1]).toMatchObject({ body: { channel: 'C42', thread_ts: `1700000000.00${n - 1}`, text: '担当の田中です。ご質問ありがとうございます。' } });
    // After disconnecting, the reply is kept in the inbox and the response says it did not reach Slack.
    await api.patch('/api/channels/slack', { disconnect: true });
    const later = await api.post(`/api/conversations/${cid}/reply`, { text: 'まだいらっしゃいますか？' });
    expect(later.status).toBe(200);
    expect(later.body.delivery).toEqual({ channel: 'slack', delivered: false, error: 'channel is not connected' });
  });

  it('a web conversation reply carries no channel delivery', async () => {
    const { api, publicId } = await t.withAgent();
    const chat = await t.api().post(`/api/public/${publicId}/chat`, { message: 'hello' });
    const r = await api.post(`/api/conversations/${str(chat.body.conversationId)}/reply`, { text: 'hi' });
    expect(r.status).toBe(200);
    expect(r.body.delivery).toBeUndefined();
  });
});

describe('/api/whatsapp/webhook', () => {
  it('GET answers the verify-token handshake with the challenge, refuses a wrong token', async () => {
    const ok = await t.api().get('/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444');
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    const bad = await t.api().get('/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1');
    expect(bad.status).toBe(403);
    expect(bad.body).toEqual({ error: 'verify token mismatch' });
    expect((await t.api().get('/api/whatsapp/webhook?hub.verify_token=verify-me&hub.challenge=1')).status).toBe(403);
  });

  it('POST verifies x-hub-signature-256, answers the customer, handles each message id once, and delivers operator replies', async () => {
    const { api } = await t.withAgent();
    await api.post('/api/channels/whatsapp/connect', { accessToken: GOOD.whatsapp, phoneNumberId: '2000002' });
    fake.sent.length = 0;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: '2000002' }, messages: [{ from: '819012345678', id: 'wamid.A', type: 'text', text: { body: 'こんにちは' } }] } }] }],
    });
    const sig = `sha256=${createHmac('sha256', WA_SECRET).update(body).digest('hex')}`;
    expect((await t.api().post('/api/whatsapp/webhook', body, { 'x-hub-signature-256': 'sha256=' + '0'.repeat(64), 'content-type': 'application/json' })).body).toEqual({ error: 'bad signature' });
    expect((await t.api().post('/api/whatsapp/webhook', body, { 'content-type': 'application/json' })).body).toEqual({ error: 'missing signature' });
    expect(fake.sent).toHaveLength(0);
    const r = await t.api().post('/api/whatsapp/webhook', body, { 'x-hub-signature-256': sig, 'content-type': 'application/json' });
    expect(r.body).toEqual({ ok: true, accepted: 1 });
    await settle();
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({ provider: 'wa', path: '/2000002/messages', body: { messaging_product: 'whatsapp', to: '819012345678', type: 'text' } });
    // A provider retry of the same message is accepted but not answered twice.
    expect((await t.api().post('/api/whatsapp/webhook', body, { 'x-hub-signature-256': sig, 'content-type': 'application/json' })).body).toEqual({ ok: true, accepted: 0 });
    await settle();
    expect(fake.sent).toHaveLength(1);

    const cid = str((await api.get('/api/conversations?channel=whatsapp')).body.conversations[0].id);
    const reply = await api.post(`/api/conversations/${cid}/reply`, { text: '担当者です。' });
    expect(reply.body.delivery).toEqual({ channel: 'whatsapp', delivered: true, error: null });
    expect(fake.sent[1].body).toMatchObject({ to: '819012345678', text: { body: '担当者です。' } });
  });

  it('the same message delivered several times at once is answered once', async () => {
    const { api } = await t.withAgent();
    await api.post('/api/channels/whatsapp/connect', { accessToken: GOOD.whatsapp, phoneNumberId: '3000003' });
    fake.sent.length = 0;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: '3000003' }, messages: [{ from: '819087654321', id: 'wamid.CONCURRENT', type: 'text', text: { body: '営業時間を教えてください' } }] } }] }],
    });
    const headers = { 'x-hub-signature-256': `sha256=${createHmac('sha256', WA_SECRET).update(body).digest('hex')}`, 'content-type': 'application/json' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.api().post('/api/whatsapp/webhook', body, headers)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((r) => Number(r.body.accepted)).reduce((a, b) => a + b, 0)).toBe(1);
    await settle();
    expect(fake.sent.filter((s) => s.provider === 'wa' && s.path === '/3000003/messages')).toHaveLength(1);
  });
});
