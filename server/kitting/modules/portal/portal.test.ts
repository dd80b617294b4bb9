import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../../security/limits';
import { mintToken } from '../../security/tokens';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { generateImei } from '../../../../shared/imei';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

/** Issue a link and publish the portal (two separate controls). */
async function issue(custId = 'abc') {
  const res = await api.post<{ url: string; portal: Record<string, unknown> }>('/api/portal/issue', { custId });
  await api.post(`/api/portal/${custId}`, { action: 'toggle', published: true });
  return new URL(res.body.url, server.url).searchParams.get('t') as string;
}

describe('GET /api/portals', () => {
  it('returns the five seeded portals and counters', async () => {
    const res = await api.get<{ state: Record<string, unknown> }>('/api/portals');
    expect(Object.keys(res.body.state).filter((k) => !k.startsWith('_'))).toEqual(['abc', 'nsk', 'tkm', 'ysd', 'smp']);
    expect(res.body.state).toMatchObject({ _tickets: 0, _dls: 0 });
  });
});

describe('POST /api/portal/issue and GET /api/portal/view', () => {
  it('issues a link that shows masked devices and latest tickets, no-store', async () => {
    const res = await api.post<{ url: string; portal: Record<string, unknown> }>('/api/portal/issue', { custId: 'tkm' });
    expect(res.body.url).toMatch(/^\/portal\.html\?t=/);
    // issuing a link does not publish: publishing is its own control
    expect(res.body.portal.published).toBe(false);
    await api.post('/api/portal/tkm', { action: 'toggle', published: true });
    const t = new URL(res.body.url, server.url).searchParams.get('t') as string;
    const view = await server.client().get<{ devices: { total: number; list: { imei: string }[]; shown: number }; tickets: unknown[]; client: Record<string, unknown> }>(`/api/portal/view?t=${encodeURIComponent(t)}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(view.body.client.name).toBe('東海メディカルサービス株式会社');
    expect(view.body.devices.total).toBe(20);
    expect(view.body.devices.list.every((d) => /^••••\d{6}$/.test(d.imei))).toBe(true);
    expect(view.body.tickets.length).toBeLessThanOrEqual(20);
    expect((await api.post<Body>('/api/portal/issue', { custId: 'zzz' })).status).toBe(400);
  });

  it('counts devices on a job card\'s work stages as active, not those still awaited', async () => {
    const res = await api.post<{ url: string }>('/api/portal/issue', { custId: 'tkm' });
    await api.post('/api/portal/tkm', { action: 'toggle', published: true });
    const t = new URL(res.body.url, server.url).searchParams.get('t') as string;
    const active = async () => (await server.client().get<{ devices: { active: number } }>(`/api/portal/view?t=${encodeURIComponent(t)}`)).body.devices.active;
    const before = await active();
    const cust = '東海メディカルサービス株式会社';
    expect((await api.post('/api/device', { imei: generateImei(), model: 'iPhone 15', cust, status: 'キッティング' })).status).toBe(200);
    expect((await api.post('/api/device', { imei: generateImei(), model: 'iPhone 15', cust, status: '入荷待ち' })).status).toBe(200);
    expect(await active()).toBe(before + 1);
  });

  it('answers 401 portal_link_invalid for missing, altered, expired and wrong-kind tokens', async () => {
    const t = await issue();
    const altered = `${t.slice(0, 10)}${t[10] === 'x' ? 'y' : 'x'}${t.slice(11)}`;
    const expired = mintToken(server.ctx.secret, 'portal', { tid: 'w-x', client: 'abc', iat: Date.now() }, -1000);
    const invite = mintToken(server.ctx.secret, 'invite', { tid: 'w-x', client: 'abc', iat: Date.now() });
    for (const q of ['', `?t=${encodeURIComponent(altered)}`, `?t=${encodeURIComponent(expired)}`, `?t=${encodeURIComponent(invite)}`]) {
      const res = await server.client().get<Body>(`/api/portal/view${q}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('portal_link_invalid');
    }
  });

  it('unpublished portals show only client, published false and last', async () => {
    const t = await issue('ysd');
    await api.post('/api/portal/ysd', { action: 'toggle', published: false });
    const view = await server.client().get<Body>(`/api/portal/view?t=${encodeURIComponent(t)}`);
    expect(Object.keys(view.body).sort()).toEqual(['client', 'last', 'ok', 'published']);
    expect(view.body.published).toBe(false);
  });

  it('accepts legacy c= outside production', async () => {
    const res = await api.get<Body>('/api/portal/view?c=abc');
    expect(res.status).toBe(200);
    expect((await api.get<Body>('/api/portal/view?c=nobody')).body.error).toBe('portal_not_found');
  });
});

describe('POST /api/portal/inquiry', () => {
  it('creates a real ticket and bumps the counter once', async () => {
    const t = await issue('abc');
    const before = (await api.get<{ state: { _tickets: number } }>('/api/portals')).body.state._tickets;
    const res = await server.client().post<{ ref: string; ticket: Record<string, unknown> }>(`/api/portal/inquiry`, { t, kind: '故障', message: '画面が割れました', name: '山田' });
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({ status: '受付', kind: '故障', cust: 'ABC物流株式会社' });
    expect(res.body.ref).toMatch(/^TK-P/);
    const tickets = await api.get<{ tickets: { id: string }[] }>('/api/tickets');
    expect(tickets.body.tickets.some((x) => x.id === res.body.ref)).toBe(true);
    expect((await api.get<{ state: { _tickets: number } }>('/api/portals')).body.state._tickets).toBe(before + 1);
  });

  it('400 message_required, 409 portal_unpublished, 401 invalid token', async () => {
    const t = await issue('nsk');
    expect((await server.client().post<Body>(`/api/portal/inquiry?t=${encodeURIComponent(t)}`, { message: '  ' })).body.error).toBe('message_required');
    await api.post('/api/portal/nsk', { action: 'toggle', published: false });
    const res = await server.client().post<Body>(`/api/portal/inquiry?t=${encodeURIComponent(t)}`, { message: 'hello' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('portal_unpublished');
    expect((await server.client().post<Body>('/api/portal/inquiry', { t: 'nope', message: 'x' })).status).toBe(401);
  });
});

describe('POST /api/portal/{custId}', () => {
  it('toggles, counts downloads, refuses unknown actions and customers', async () => {
    const off = await api.post<{ portal: Record<string, unknown>; dls: number }>('/api/portal/smp', {});
    expect(off.body.portal.published).toBe(false);
    const on = await api.post<{ portal: Record<string, unknown> }>('/api/portal/smp', { action: 'toggle' });
    expect(on.body.portal).toMatchObject({ published: true, last: 'たった今' });
    const dl = await api.post<{ dls: number }>('/api/portal/smp', { action: 'dl' });
    expect(dl.body.dls).toBe(1);
    expect((await api.post('/api/portal/smp', { action: 'explode' })).status).toBe(400);
    expect((await api.post('/api/portal/nobody', {})).status).toBe(404);
  });
});

describe('GET /api/public/status', () => {
  it('gives every workspace its own demo slugs, so status never answers with another workspace', async () => {
    const other = server.client();
    const mine = (await api.get<{ state: Record<string, { slug: string }> }>('/api/portals')).body.state.abc.slug;
    const theirs = (await other.get<{ state: Record<string, { slug: string }> }>('/api/portals')).body.state.abc.slug;
    expect(mine).not.toBe(theirs);
  });

  it('reports a published portal with CORS and 400/404 otherwise', async () => {
    await issue('abc');
    const slug = String((await api.get<{ state: Record<string, { slug: string }> }>('/api/portals')).body.state.abc.slug);
    expect(slug).toMatch(/^abc-logistics-[0-9a-f]{4}$/);
    const res = await server.client().get<Body>(`/api/public/status?site=${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toMatchObject({ site: slug, published: true, total: 32, devices: { total: 32, computed: true } });
    expect((await server.client().get('/api/public/status?site=Bad_Slug!')).status).toBe(400);
    expect((await server.client().get('/api/public/status?site=unknown-site')).status).toBe(404);
  });
  it('is rate limited per IP', async () => {
    configureLimit(server.ctx, 'publicStatus', 2);
    const codes = [];
    const slug = String((await api.get<{ state: Record<string, { slug: string }> }>('/api/portals')).body.state.abc.slug);
    for (let i = 0; i < 3; i++) codes.push((await server.client().get(`/api/public/status?site=${slug}`)).status);
    expect(codes).toEqual([200, 200, 429]);
  });
});
