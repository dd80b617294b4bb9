import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { configureLimit } from '../../security/limits';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
interface Issued {
  url: string;
  link: string;
  expires: string;
  via: string;
  portal: { id: string; name: string; published: boolean };
}
const DAY = 24 * 60 * 60 * 1000;
const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('t') as string;

describe('portal links on the public address', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({ config: { publicUrl: 'https://kitting.example.co.jp' } });
    api = server.client();
  });
  afterAll(() => server.close());

  it('builds the link on KITTING_PUBLIC_URL and states the last day it opens (180 days)', async () => {
    const before = Date.now();
    const res = await api.post<Issued>('/api/portal/issue', { custId: 'abc' });
    expect(res.status).toBe(200);
    expect(res.body.via).toBe('public-url');
    expect(res.body.link).toBe(`https://kitting.example.co.jp${res.body.url}`);
    expect([jstDate(before + 180 * DAY), jstDate(Date.now() + 180 * DAY)]).toContain(res.body.expires);
  });
});

describe('portal: issuing, publishing and what the customer sees', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer();
    api = server.client();
  });
  afterAll(() => server.close());

  it('without a public address the link is on the address the request came to', async () => {
    const res = await api.post<Issued>('/api/portal/issue', { custId: 'abc' });
    expect(res.body.via).toBe('request');
    expect(res.body.link).toBe(`${server.url}${res.body.url}`);
  });

  it('issuing a link never publishes; publishing is the toggle alone', async () => {
    const state = async () => (await api.get<{ state: Record<string, { published: boolean }> }>('/api/portals')).body.state;
    expect((await state()).ysd?.published).toBe(false);
    const res = await api.post<Issued>('/api/portal/issue', { custId: 'ysd' });
    expect(res.body.portal.published).toBe(false);
    expect((await state()).ysd?.published).toBe(false);
    const view = await server.client().get<Body>(`/api/portal/view?t=${encodeURIComponent(tokenOf(res.body.url))}`);
    expect(view.body.published).toBe(false);
    expect(view.body.devices).toBeUndefined();
  });

  it('any customer gets a portal: one is created (unpublished) the first time, and reused after', async () => {
    const made = await api.post<{ customer: { id: string; name: string } }>('/api/customer', { name: '株式会社ポータル新規' });
    expect(made.status).toBe(200);
    const id = made.body.customer.id;
    const first = await api.post<Issued>('/api/portal/issue', { custId: id });
    expect(first.status).toBe(200);
    expect(first.body.portal).toMatchObject({ name: '株式会社ポータル新規', published: false });
    const again = await api.post<Issued>('/api/portal/issue', { custId: id });
    expect(again.body.portal.id).toBe(first.body.portal.id);
    const portals = (await api.get<{ state: Record<string, { name?: string }> }>('/api/portals')).body.state;
    expect(Object.values(portals).filter((p) => p?.name === '株式会社ポータル新規')).toHaveLength(1);
    expect((await api.post<Body>('/api/portal/issue', { custId: 'cust-nobody' })).status).toBe(400);
  });

  it('shows customer-facing fields only: no storage place of the center', async () => {
    const res = await api.post<Issued>('/api/portal/issue', { custId: 'abc' });
    await api.post('/api/portal/abc', { action: 'toggle', published: true });
    const view = await server.client().get<{ devices: { list: Record<string, unknown>[] } }>(`/api/portal/view?t=${encodeURIComponent(tokenOf(res.body.url))}`);
    expect(view.status).toBe(200);
    expect(view.body.devices.list.length).toBeGreaterThan(0);
    for (const d of view.body.devices.list) expect(Object.keys(d).sort()).toEqual(['chip', 'imei', 'model', 'status']);
    expect(JSON.stringify(view.body)).not.toMatch(/作業台|修理棚|入荷棚|保管棚/);
  });
});

describe('portal documents: certificates and invoices of that customer only, read-only', () => {
  let server: TestServer;
  let api: Client;
  let tAbc: string;
  let tNsk: string;
  let abcName: string;
  let nskName: string;
  const certs: Record<string, string> = {};
  const invoices: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    api = server.client();
    const state = (await api.get<{ state: Record<string, { name: string }> }>('/api/portals')).body.state;
    abcName = state.abc!.name;
    nskName = state.nsk!.name;
    for (const [key, name] of [['abc', abcName], ['nsk', nskName]] as const) {
      const issued = await api.post<Issued>('/api/portal/issue', { custId: key });
      await api.post(`/api/portal/${key}`, { action: 'toggle', published: true });
      if (key === 'abc') tAbc = tokenOf(issued.body.url);
      else tNsk = tokenOf(issued.body.url);
      const cert = await api.post<{ cert: { no: string } }>('/api/cert', { cust: name, methodKey: 'purge', devices: [{ model: 'iPhone 13', id: '353795089752529', storage: '128GB' }] });
      expect(cert.status).toBe(200);
      certs[key] = cert.body.cert.no;
      const inv = await api.post<{ invoice: { id: string } }>('/api/invoice', { cust: name, amount: 1000, month: '2611', status: 'issued' });
      expect(inv.status).toBe(200);
      invoices[key] = inv.body.invoice.id;
    }
    const draft = await api.post<{ invoice: { id: string } }>('/api/invoice', { cust: abcName, amount: 500, month: '2611', status: 'draft' });
    invoices.draft = draft.body.invoice.id;
  });
  afterAll(() => server.close());

  const view = (t: string) => server.client().get<{ documents: { certs: { no: string }[]; invoices: { id: string }[] } }>(`/api/portal/view?t=${encodeURIComponent(t)}`);
  const get = (path: string, t: string) => server.client().get<Body>(`${path}?t=${encodeURIComponent(t)}`);

  it('the view lists its own certificates and issued invoices, never a draft or another customer’s', async () => {
    const v = await view(tAbc);
    expect(v.body.documents.certs.map((c) => c.no)).toContain(certs.abc);
    expect(v.body.documents.certs.map((c) => c.no)).not.toContain(certs.nsk);
    expect(v.body.documents.invoices.map((i) => i.id)).toContain(invoices.abc);
    expect(v.body.documents.invoices.map((i) => i.id)).not.toContain(invoices.nsk);
    expect(v.body.documents.invoices.map((i) => i.id)).not.toContain(invoices.draft);
  });

  it('downloads its own certificate and invoice as PDF, counted as portal downloads', async () => {
    const dls = async () => (await api.get<{ state: { _dls: number } }>('/api/portals')).body.state._dls;
    const before = await dls();
    const c = await get(`/api/portal/cert/${encodeURIComponent(certs.abc!)}/pdf`, tAbc);
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toContain('application/pdf');
    expect(c.headers.get('cache-control')).toBe('no-store');
    const i = await get(`/api/portal/invoice/${encodeURIComponent(invoices.abc!)}/pdf`, tAbc);
    expect(i.status).toBe(200);
    expect(i.headers.get('content-type')).toContain('application/pdf');
    expect(await dls()).toBe(before + 2);
  });

  it('another customer’s portal link cannot download them (404, the same answer as a missing document)', async () => {
    for (const path of [`/api/portal/cert/${encodeURIComponent(certs.abc!)}/pdf`, `/api/portal/invoice/${encodeURIComponent(invoices.abc!)}/pdf`]) {
      const res = await get(path, tNsk);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('document_not_found');
    }
    expect((await get(`/api/portal/invoice/${encodeURIComponent(invoices.draft!)}/pdf`, tAbc)).status).toBe(404);
    expect((await get('/api/portal/cert/KIT-ERZ-1999-0001/pdf', tAbc)).status).toBe(404);
  });

  it('a token from another workspace cannot read this workspace’s documents', async () => {
    const other = server.client();
    const theirs = await other.post<Issued>('/api/portal/issue', { custId: 'abc' });
    await other.post('/api/portal/abc', { action: 'toggle', published: true });
    const res = await get(`/api/portal/cert/${encodeURIComponent(certs.abc!)}/pdf`, tokenOf(theirs.body.url));
    expect(res.status).toBe(404);
  });

  it('no token, an altered token or an unpublished portal gets nothing; the routes are read-only', async () => {
    const path = `/api/portal/cert/${encodeURIComponent(certs.abc!)}/pdf`;
    expect((await server.client().get<Body>(path)).status).toBe(401);
    expect((await get(path, `${tAbc}x`)).status).toBe(401);
    await api.post('/api/portal/abc', { action: 'toggle', published: false });
    const off = await get(path, tAbc);
    expect(off.status).toBe(409);
    expect(off.body.error).toBe('portal_unpublished');
    await api.post('/api/portal/abc', { action: 'toggle', published: true });
    const post = await server.client().post<Body>(`${path}?t=${encodeURIComponent(tAbc)}`, {});
    expect(post.status).toBe(404);
  });

  it('is rate limited per client address (each PDF is real work)', async () => {
    configureLimit(server.ctx, 'portalDownload', 2);
    const path = `/api/portal/cert/${encodeURIComponent(certs.abc!)}/pdf`;
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await get(path, tAbc)).status);
    expect(codes.slice(-1)).toEqual([429]);
  });
});

describe('portal links from a bench enrolled with a central', () => {
  let central: TestServer;
  let bench: TestServer;
  beforeAll(async () => {
    central = await startTestServer({ mode: 'central', config: { publicUrl: 'https://center.example.co.jp/kitting' } });
    bench = await startTestServer({ mode: 'bench' });
  });
  afterAll(async () => {
    await bench.close();
    await central.close().catch(() => undefined);
  });

  it('the link is minted by central on its public address, and opens there', async () => {
    const owner = central.client();
    await owner.get('/api/devices');
    const ui = bench.client();
    const { code } = (await owner.post<Body & { code: string }>('/api/sync/enrol-code')).body;
    expect((await ui.post<Body>('/api/sync/enrol', { central: central.url, code })).status).toBe(200);
    const res = await ui.post<Issued>('/api/portal/issue', { custId: 'abc' });
    expect(res.status).toBe(200);
    expect(res.body.via).toBe('central');
    expect(res.body.link.startsWith('https://center.example.co.jp/kitting/portal.html?t=')).toBe(true);
    await owner.post('/api/portal/abc', { action: 'toggle', published: true });
    const view = await central.client().get<Body>(`/api/portal/view?t=${encodeURIComponent(tokenOf(res.body.url))}`);
    expect(view.status).toBe(200);
    expect(view.body.published).toBe(true);
  });

  it('a portal central does not know yet is refused with a reason, not a link that cannot open', async () => {
    const ui = bench.client();
    const made = await ui.post<{ customer: { id: string } }>('/api/customer', { name: '株式会社未同期' });
    // stop the bench from syncing first: the new portal exists on the bench only
    const res = await ui.post<Body>('/api/portal/issue', { custId: made.body.customer.id });
    if (res.status === 200) expect((res.body as unknown as Issued).via).toBe('central');
    else {
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('portal_link_unavailable');
    }
  });

  it('the central route refuses a caller without a bench token', async () => {
    const res = await central.client().post<Body>('/api/sync/v1/portal-link', { key: 'abc' });
    expect(res.status).toBe(401);
  });
});
