import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../../security/limits';
import { P, PLATFORM_WS } from '../platform-collections';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
type Lead = { id: string; source: string; status: string; name: string; email: string };
let server: TestServer;
let api: Client;
beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'publicForm', 1000);
  configureLimit(server.ctx, 'signup', 1000);
  api = server.client();
});
afterAll(() => server.close());

const leads = async () => (await api.get<{ leads: Lead[] }>('/api/leads')).body.leads;

describe('leads', () => {
  it('needs one of name, email, company; defaults source web; newest first', async () => {
    const none = await api.post<Body>('/api/lead', { phone: '03' });
    expect(none.status).toBe(400);
    expect((await api.post<Body>('/api/lead', { email: 'bad' })).body.error).toBe('invalid email');
    const a = await api.post<{ id: string }>('/api/lead', { name: '田中', message: 'x'.repeat(2000) });
    expect(a.body.id).toMatch(/^L-/);
    const b = await api.post<{ id: string }>('/api/lead', { company: 'B社' });
    const list = await leads();
    expect(list[0].id).toBe(b.body.id);
    const first = list.find((l) => l.id === a.body.id) as Lead & { message: string };
    expect(first).toMatchObject({ source: 'web', status: 'new' });
    expect(first.message).toHaveLength(1500);
    const upd = await api.post<{ lead: Record<string, unknown> }>(`/api/lead/${a.body.id}`, { status: 'contacted', notes: 'n'.repeat(4000) });
    expect(upd.body.lead.status).toBe('contacted');
    expect(String(upd.body.lead.notes)).toHaveLength(3000);
    // an edited email is checked like the form's: an address or nothing
    const badEmail = await api.post<Body>(`/api/lead/${a.body.id}`, { email: 'not-an-address' });
    expect(badEmail.status).toBe(400);
    expect(String(badEmail.body.message)).toContain('メールアドレスの形式が正しくありません');
    expect((await leads()).find((l) => l.id === a.body.id)?.email).toBe('');
    expect((await api.post<{ lead: Lead }>(`/api/lead/${a.body.id}`, { email: 'tanaka@example.jp' })).body.lead.email).toBe('tanaka@example.jp');
    expect((await api.post<Body>('/api/lead/L-nope', { status: 'x' })).status).toBe(404);
    expect((await api.post<Body>(`/api/lead/${a.body.id}/delete`)).body).toEqual({ ok: true });
  });
});

describe('sign documents', () => {
  it('creates, refuses submit without agreed, records the signature once', async () => {
    const c = await api.post<{ id: string; url: string }>('/api/sign/create', { client: 'ABC', amount: 12000, bodyHtml: '<p>見積</p>' });
    expect(c.body.url).toContain(c.body.id);
    const doc = await api.get<{ doc: Record<string, unknown> }>(`/api/sign/${c.body.id}`);
    expect(doc.body.doc).toMatchObject({ title: '御見積書', status: 'pending' });
    expect((await api.post<Body>(`/api/sign/${c.body.id}/submit`, { name: '山田' })).body.error).toBe('agreed required');
    expect((await api.post<Body>(`/api/sign/${c.body.id}/submit`, { name: '山田', agreed: 'true' })).status).toBe(400);
    expect((await api.post<Body>(`/api/sign/${c.body.id}/submit`, { agreed: true })).body.error).toBe('name required');
    const ok = await api.post<{ status: string; signedAt: number }>(`/api/sign/${c.body.id}/submit`, { name: '山田', agreed: true, signature: 'data:image/png;base64,AAA' });
    expect(ok.body.status).toBe('signed');
    const st = await api.get<Body>(`/api/sign/${c.body.id}/status`);
    expect(st.body).toMatchObject({ status: 'signed', signedName: '山田', signedAt: ok.body.signedAt });
    const stored = await server.store.get(String((await api.get<{ tenantId: string }>('/api/account/me')).body.tenantId), 'signs', c.body.id);
    expect(stored).toMatchObject({ signature: 'data:image/png;base64,AAA', signedIp: expect.any(String) });
    expect((await api.post(`/api/sign/${c.body.id}/submit`, { name: 'x', agreed: true })).status).toBe(409);
    expect((await api.get<Body>('/api/sign/SG-nope')).body.error).toBe('not found');
  });
});

describe('bookings, referrals, partners', () => {
  it('a booking also creates a meeting lead', async () => {
    expect((await api.post('/api/booking', { company: 'X' })).status).toBe(400);
    const b = await api.post<{ id: string }>('/api/booking', { name: '佐藤', when: '12/1 10:00', topic: 'MDM' });
    expect(b.body.id).toMatch(/^B-/);
    expect((await leads()).some((l) => l.source === 'booking' && l.status === 'meeting' && l.name === '佐藤')).toBe(true);
    const list = await api.get<{ bookings: { id: string; status: string }[] }>('/api/bookings');
    expect(list.body.bookings[0]).toMatchObject({ id: b.body.id, status: 'requested' });
    expect((await api.post<{ booking: { status: string } }>(`/api/booking/${b.body.id}`, { status: 'confirmed' })).body.booking.status).toBe('confirmed');
    expect((await api.post('/api/booking/B-nope', { status: 'x' })).status).toBe(404);
  });

  it('referral codes track clicks', async () => {
    const r = await api.post<{ code: string; url: string }>('/api/referral', { code: 'FRIEND-1' });
    expect(r.body).toMatchObject({ code: 'FRIEND-1', url: '?ref=FRIEND-1' });
    await api.post('/api/referral/FRIEND-1/track');
    const list = await api.get<{ referrals: { code: string; clicks: number; referrer: string }[] }>('/api/referrals');
    expect(list.body.referrals.find((x) => x.code === 'FRIEND-1')).toMatchObject({ clicks: 1, referrer: '紹介者' });
    expect((await api.post('/api/referral/NOPE/track')).status).toBe(404);
  });

  it('partners need company and email', async () => {
    expect((await api.post<Body>('/api/partner', { email: 'a@b.jp' })).body.error).toBe('company required');
    expect((await api.post<Body>('/api/partner', { company: 'A' })).body.error).toBe('email required');
    const p = await api.post<{ id: string; code: string; referralUrl: string }>('/api/partner', { company: 'A社', email: 'a@b.jp' });
    expect(p.body.referralUrl).toBe(`?ref=${p.body.code}`);
    const u = await api.post<{ partner: Record<string, unknown> }>(`/api/partner/${p.body.id}`, { tier: 'gold', deals: 3 });
    expect(u.body.partner).toMatchObject({ tier: 'gold', deals: 3 });
  });
});

describe('reviews, events, A/B, signup', () => {
  it('stores reviews unapproved and averages over approved only', async () => {
    expect((await api.post<Body>('/api/review', { rating: 5 })).body.error).toBe('comment required');
    await api.post('/api/review', { comment: 'good', rating: 4 });
    await api.post('/api/review', { comment: 'bad', rating: 1, nps: 2 });
    expect((await api.get<{ count: number }>('/api/reviews')).body.count).toBe(0);
    const ws = String((await api.get<{ tenantId: string }>('/api/account/me')).body.tenantId);
    const good = (await server.store.list(ws, 'reviews')).find((r) => r.comment === 'good');
    expect(good?.nps).toBe(8);
    await server.store.transact(ws, (tx) => tx.patch('reviews', String(good?.id), { approved: true }));
    expect((await api.get<Body>('/api/reviews')).body).toMatchObject({ avg: 4, count: 1, nps: 0 });
  });

  it('lists three webinars and registers with a webinar lead', async () => {
    const ev = await api.get<{ events: { id: string; seats: number }[] }>('/api/events');
    expect(ev.body.events.map((e) => e.id)).toEqual(['ev-mdm', 'ev-lcm', 'ev-ai']);
    expect((await api.post('/api/event/ev-x/register', { email: 'a@b.jp' })).status).toBe(404);
    expect((await api.post('/api/event/ev-ai/register', {})).status).toBe(400);
    await api.post('/api/event/ev-ai/register', { email: 'w@b.jp' });
    expect((await leads()).some((l) => l.source === 'webinar' && l.email === 'w@b.jp')).toBe(true);
    const after = await api.get<{ events: { id: string; seats: number }[] }>('/api/events');
    expect(after.body.events[2].seats).toBe(ev.body.events[2].seats - 1);
  });

  it('counts A/B views and conversions', async () => {
    await api.post('/api/ab', { variant: 'a', event: 'view' });
    await api.post('/api/ab', { variant: 'b', event: 'convert' });
    expect((await api.post('/api/ab', { variant: 'c', event: 'view' })).status).toBe(400);
    expect((await api.get<Body>('/api/ab')).body.stats).toEqual({ a: { view: 1, convert: 0 }, b: { view: 0, convert: 1 } });
  });

  it('signup creates a trial Starter tenant and a lead', async () => {
    expect((await api.post<Body>('/api/signup', {})).body.error).toBe('email required');
    const res = await api.post<{ tenant: { id: string; name: string } }>('/api/signup', { email: 'new@corp.jp', company: 'New Corp' });
    expect(res.body.tenant.id).toMatch(/^t-new-corp-[0-9a-f]{6}$/);
    const t = await server.store.get(PLATFORM_WS, P.tenants, res.body.tenant.id);
    expect(t).toMatchObject({ status: 'trial', plan: 'Starter', planKey: 'starter' });
    expect((await leads()).some((l) => l.source === 'signup' && l.email === 'new@corp.jp')).toBe(true);
  });

  it('public forms are rate limited per IP', async () => {
    configureLimit(server.ctx, 'publicForm', 2);
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await api.post('/api/lead', { name: 'x' })).status);
    expect(codes).toEqual([200, 200, 429]);
  });
});
