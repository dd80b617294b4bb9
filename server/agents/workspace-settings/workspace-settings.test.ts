import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

/** Fake DNS: domain -> CNAME answers, name -> TXT records; a missing name answers ENODATA like the resolver. */
const dns = new Map<string, string[]>();
const txt = new Map<string, string[][]>();
let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({ cnameTarget: 'domains.example-platform.com' }, {
    webhookWorker: false,
    resolveCname: async (host) => {
      const a = dns.get(host);
      if (!a) throw Object.assign(new Error('queryCname ENODATA'), { code: 'ENODATA' });
      return a;
    },
    resolveTxt: async (host) => {
      const a = txt.get(host);
      if (!a) throw Object.assign(new Error('queryTxt ENODATA'), { code: 'ENODATA' });
      return a;
    },
  });
});
afterAll(() => t.close());

describe('/api/domains', () => {
  it('adds a domain as checking, verifies the CNAME by lookup, and deletes', async () => {
    const { api, agentId } = await t.withAgent();
    const list0 = await api.get('/api/domains');
    expect(list0.body).toEqual({ domains: [], target: 'domains.example-platform.com', dns: { type: 'CNAME', target: 'domains.example-platform.com' } });
    const add = await api.post('/api/domains', { domain: ' Chat.Example.co.jp. ' });
    expect(add.body.domain).toMatchObject({ domain: 'chat.example.co.jp', status: 'checking', agentId, verified_at: null });
    const id = str(add.body.domain.id);
    expect((await api.post('/api/domains', { domain: 'chat.example.co.jp' })).body).toEqual({ error: 'domain already added' });
    expect((await (await t.signup()).post('/api/domains', { domain: 'chat.example.co.jp' })).status).toBe(404); // no agent yet
    for (const bad of ['localhost', '127.0.0.1', 'exa mple.com', '-bad.example.com', 'http://x.example.com', 'a'.repeat(64) + '.com']) {
      expect((await api.post('/api/domains', { domain: bad })).body).toEqual({ error: 'domain: not a valid domain name' });
    }
    expect((await api.post('/api/domains', {})).body).toEqual({ error: 'domain is required' });
    expect((await api.post('/api/domains', { domain: 'x.domains.example-platform.com' })).status).toBe(400);

    let r = await api.post(`/api/domains/${id}/refresh`);
    expect(r.body.domain).toMatchObject({ status: 'checking', error: 'no CNAME record found yet', cname: null });
    dns.set('chat.example.co.jp', ['elsewhere.example.net']);
    r = await api.post(`/api/domains/${id}/refresh`);
    expect(r.body.domain).toMatchObject({ status: 'misconfigured', error: 'CNAME points to elsewhere.example.net, expected domains.example-platform.com', cname: 'elsewhere.example.net' });
    dns.set('chat.example.co.jp', ['Domains.Example-Platform.com.']);
    r = await api.post(`/api/domains/${id}/refresh`);
    // routed but not yet proven: the TXT record with this workspace's token is missing
    expect(r.body.domain).toMatchObject({ status: 'checking', error: "TXT record _agent-verify.chat.example.co.jp with this workspace's token not found yet", verified_at: null });
    expect(r.body.domain.verification).toMatchObject({ type: 'TXT', name: '_agent-verify.chat.example.co.jp' });
    txt.set('_agent-verify.chat.example.co.jp', [[str(r.body.domain.verification.value)]]);
    r = await api.post(`/api/domains/${id}/refresh`);
    expect(r.body.domain).toMatchObject({ status: 'active', error: null, cname: 'domains.example-platform.com' });
    expect(r.body.domain.verified_at).not.toBeNull();
    expect(arr((await api.get(`/api/domains?agent=${agentId}`)).body.domains)).toHaveLength(1);

    const stranger = await t.withAgent();
    expect((await stranger.api.post(`/api/domains/${id}/refresh`)).body).toEqual({ error: 'domain not found' });
    expect((await stranger.api.del(`/api/domains/${id}`)).status).toBe(404);
    expect((await api.del(`/api/domains/${id}`)).body).toEqual({ ok: true });
    expect((await api.get('/api/domains')).body.domains).toEqual([]);
    expect((await t.api().get('/api/domains')).status).toBe(401);
  });

  it('a failing DNS server is reported, not mistaken for a verified domain', async () => {
    const servfail = async (): Promise<never> => { throw Object.assign(new Error('x'), { code: 'ESERVFAIL' }); };
    const t2 = await startAgentsServer({}, { webhookWorker: false, resolveCname: servfail, resolveTxt: servfail });
    try {
      const { api } = await t2.withAgent();
      const id = str((await api.post('/api/domains', { domain: 'help.example.com' })).body.domain.id);
      expect((await api.post(`/api/domains/${id}/refresh`)).body.domain).toMatchObject({ status: 'checking', error: 'DNS lookup failed (ESERVFAIL)' });
    } finally {
      await t2.close();
    }
  });
});

describe('/api/settings', () => {
  it('answers every section with defaults and merges a PATCH per section', async () => {
    const { api, agentId } = await t.withAgent();
    const g = await api.get('/api/settings');
    expect(g.body.agentId).toBe(agentId);
    expect(g.body.sections).toEqual(['general', 'ai', 'voice', 'security', 'helpdesk', 'emails', 'notifications']);
    expect(g.body.settings.general).toEqual({ language: 'ja', timezone: 'Asia/Tokyo', business_name: '', business_hours: '' });
    expect(g.body.settings.security).toMatchObject({ allowed_domains: [], messages_per_minute: 30 });
    const p = await api.patch('/api/settings', { general: { business_name: '東京キッティング' }, notifications: { email: 'OPS@example.com', new_lead: false } });
    expect(p.body.settings.general).toEqual({ language: 'ja', timezone: 'Asia/Tokyo', business_name: '東京キッティング', business_hours: '' });
    expect(p.body.settings.notifications).toMatchObject({ email: 'ops@example.com', new_lead: false, handoff: true });
    await api.patch('/api/settings', { general: { language: 'en' } });
    expect((await api.get(`/api/settings?agent=${agentId}`)).body.settings.general).toMatchObject({ language: 'en', business_name: '東京キッティング' });
  });

  it('refuses unknown sections, unknown fields and bad values, storing nothing', async () => {
    const { api } = await t.withAgent();
    expect((await api.patch('/api/settings', { billing: { x: 1 } })).status).toBe(400);
    expect((await api.patch('/api/settings', { general: { colour: 'red' } })).status).toBe(400);
    expect((await api.patch('/api/settings', { voice: { speed: 5 } })).body.error).toMatch(/^voice\.speed: /);
    expect((await api.patch('/api/settings', { emails: { transcript_recipients: ['not-an-email'] }, general: { language: 'fr' } })).status).toBe(400);
    expect((await api.get('/api/settings')).body.settings.general.language).toBe('ja');
    expect((await api.get('/api/settings?agent=agt_nope')).body).toEqual({ error: 'agent not found' });
    expect((await t.api().patch('/api/settings', {})).status).toBe(401);
  });
});

describe('/api/campaigns (beta)', () => {
  it('creates templates and campaigns, counts by status, marks sent once', async () => {
    const { api, agentId } = await t.withAgent();
    expect((await api.get('/api/campaigns')).body).toEqual({ beta: true, campaigns: [], counts: { total: 0, draft: 0, sent: 0 } });
    expect((await api.post('/api/campaigns/templates', {})).body).toEqual({ error: 'name is required' });
    const tpl = await api.post('/api/campaigns/templates', { name: '春のご案内', body: 'こんにちは {{name}} 様' });
    expect(tpl.body.template).toMatchObject({ name: '春のご案内', type: 'text', body: 'こんにちは {{name}} 様', agentId });
    expect(arr((await api.get('/api/campaigns/templates')).body.templates)).toHaveLength(1);
    expect((await api.post('/api/campaigns', { name: 'x', templateId: 'tpl_missing' })).body).toEqual({ error: 'template not found' });
    expect((await api.post('/api/campaigns', { name: 'x', channel: 'fax' })).status).toBe(400);
    expect((await api.post('/api/campaigns', {})).body).toEqual({ error: 'name is required' });
    await api.post('/api/leads', { name: 'A', email: 'a@example.com', status: 'qualified' });
    await api.post('/api/leads', { name: 'B', email: 'b@example.com' });
    const c = await api.post('/api/campaigns', { name: 'Spring', templateId: tpl.body.template.id, audience: { type: 'leads', status: 'qualified' } });
    expect(c.body.campaign).toMatchObject({ name: 'Spring', channel: 'email', repliesMode: 'bot', status: 'draft', audience: { type: 'leads', status: 'qualified' }, sent_at: null });
    await api.post('/api/campaigns', { name: 'Draft two', channel: 'whatsapp', repliesMode: 'human' });
    const id = str(c.body.campaign.id);
    const sent = await api.post(`/api/campaigns/${id}/send`);
    expect(sent.body.campaign).toMatchObject({ status: 'sent', recipients: 1 });
    expect(sent.body.campaign.sent_at).not.toBeNull();
    expect((await api.post(`/api/campaigns/${id}/send`)).body).toEqual({ error: 'campaign already sent' });
    expect((await api.get('/api/campaigns')).body.counts).toEqual({ total: 2, draft: 1, sent: 1 });
    const other = await t.withAgent();
    expect((await other.api.post(`/api/campaigns/${id}/send`)).body).toEqual({ error: 'campaign not found' });
    expect((await other.api.post('/api/campaigns', { name: 'x', templateId: tpl.body.template.id })).body).toEqual({ error: 'template not found' });
  });
});
