import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAgentsConfig } from '../config.testkit';
import { arr, startAgentsServer, str, type Api, type AgentsTestServer } from '../harness.testkit';
import { startFakeStripe, type FakeStripe } from '../billing/fake-providers.testkit';
import { commissionCents, recordCommission } from './commission';

const KEY = 'sk_test_aff';
let stripe: FakeStripe;
let t: AgentsTestServer;
beforeAll(async () => {
  stripe = await startFakeStripe(KEY);
  t = await startAgentsServer({ payments: { ...testAgentsConfig('/unused').payments, stripeSecretKey: KEY, stripeApiUrl: stripe.url, allowInternal: allowOnlyHostsOf(stripe.url) } });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

async function affiliate(): Promise<{ api: Api; code: string; affId: string }> {
  const api = await t.signup();
  const r = await api.post('/api/affiliate/enroll', { displayName: 'Kenji', socials: { x: 'https://x.com/kenji' }, agree: true });
  expect(r.status).toBe(200);
  return { api, code: str(arr(r.body.links)[0].code), affId: str(r.body.affiliate.id) };
}
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]).toString('base64');

describe('commission arithmetic', () => {
  it('is 10 % of the fee in cents, rounded half up', () => {
    expect(commissionCents(4500)).toBe(450);
    expect(commissionCents(1999)).toBe(200);
    expect(commissionCents(1994)).toBe(199);
    expect(commissionCents(5)).toBe(1);
    expect(commissionCents(4)).toBe(0);
  });

  it('earns only on USD fees of referred workspaces, once per payment', async () => {
    const { affId } = await affiliate();
    const db = t.ctx.db;
    await db.insertInto('affiliate_referrals').values({ workspace_id: 'ws_referred_x', affiliate_id: affId, created_at: 1 }).execute();
    expect(await recordCommission(db, 'ws_referred_x', 'stripe:cs_a', 1999)).toEqual({ affiliateId: affId, commissionCents: 200 });
    expect(await recordCommission(db, 'ws_referred_x', 'stripe:cs_a', 1999)).toBeNull();
    expect(await recordCommission(db, 'ws_referred_x', 'stripe:cs_b', 1999, 'eur')).toBeNull();
    expect(await recordCommission(db, 'ws_not_referred', 'stripe:cs_c', 1999)).toBeNull();
  });
});

describe('enrolment and profile', () => {
  it('shows the program before enrolment and needs agree:true', async () => {
    const api = await t.signup();
    const g = await api.get('/api/affiliate');
    expect(g.body).toEqual({ enrolled: false, program: { commissionRate: 0.1, commissionPercent: 10, cookieDays: 60, minimumPayout: 50, currency: 'USD' } });
    expect((await api.post('/api/affiliate/enroll', { displayName: 'A' })).body).toEqual({ error: 'agree is required' });
    expect((await api.post('/api/affiliate/enroll', { agree: false })).status).toBe(400);
    expect((await api.get('/api/affiliate')).body.enrolled).toBe(false);
    const r = await api.post('/api/affiliate/enroll', { agree: true });
    expect(r.body).toMatchObject({ enrolled: true, affiliate: { displayName: 'Tester', kycStatus: 'none', payoutMethod: null, notify: true }, stats: { clicks: 0, signups: 0, earnings: 0, available: 0 } });
    expect(arr(r.body.links)).toHaveLength(1);
    expect(arr(r.body.links)[0]).toMatchObject({ primary: true, url: `${t.ctx.config.appUrl}/r/${str(arr(r.body.links)[0].code)}` });
    expect((await api.post('/api/affiliate/enroll', { agree: true })).body).toEqual({ error: 'already enrolled' });
  });

  it('updates the profile; promo codes are unique; not-enrolled callers get 404', async () => {
    const a = await affiliate();
    const b = await affiliate();
    const p = await a.api.patch('/api/affiliate', { displayName: 'Kenji T.', promoCode: 'kenji-10', notify: false, socials: ['https://youtube.com/@kenji'] });
    expect(p.body.affiliate).toMatchObject({ displayName: 'Kenji T.', promoCode: 'KENJI-10', notify: false, socials: ['https://youtube.com/@kenji'] });
    expect((await b.api.patch('/api/affiliate', { promoCode: 'KENJI-10' })).body).toEqual({ error: 'promo code already taken' });
    expect((await b.api.patch('/api/affiliate', { promoCode: 'a b' })).status).toBe(400);
    const stranger = await t.signup();
    expect((await stranger.patch('/api/affiliate', { displayName: 'x' })).body).toEqual({ error: 'not enrolled in the affiliate program' });
    expect((await stranger.post('/api/affiliate/links', { name: 'x' })).status).toBe(404);
  });

  it('refuses viewers on every mutation (editor role)', async () => {
    const owner = await t.signup();
    const viewer = await t.join(owner, 'viewer');
    const r = await viewer.post('/api/affiliate/enroll', { agree: true });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'editor role required', role: 'viewer', required: 'editor' });
    for (const res of [await viewer.patch('/api/affiliate', {}), await viewer.post('/api/affiliate/links', { name: 'x' }), await viewer.post('/api/affiliate/payout', { amount: 50 }), await viewer.post('/api/affiliate/kyc', { document: PNG })]) expect(res.status).toBe(403);
    expect((await viewer.get('/api/affiliate')).status).toBe(200);
    expect((await viewer.get('/api/affiliate/leaderboard')).status).toBe(200);
  });
});

describe('campaign links and /r/<code>', () => {
  it('creates and deletes campaign links; the primary link cannot be deleted', async () => {
    const { api } = await affiliate();
    const l = await api.post('/api/affiliate/links', { name: 'YouTube review', channel: 'youtube' });
    expect(l.body.link).toMatchObject({ name: 'YouTube review', channel: 'youtube', primary: false, clicks: 0, signups: 0 });
    expect((await api.post('/api/affiliate/links', { channel: 'x' })).body).toEqual({ error: 'name is required' });
    const links = arr((await api.get('/api/affiliate')).body.links);
    expect(links).toHaveLength(2);
    expect((await api.del(`/api/affiliate/links/${str(links[0].id)}`)).body).toEqual({ error: 'the primary link cannot be deleted' });
    expect((await api.del(`/api/affiliate/links/${str(l.body.link.id)}`)).status).toBe(200);
    expect((await api.del(`/api/affiliate/links/${str(l.body.link.id)}`)).body).toEqual({ error: 'link not found' });
    const other = await affiliate();
    expect((await other.api.del(`/api/affiliate/links/${str(links[0].id)}`)).status).toBe(404);
  });

  it('records a click, sets the 60-day aff_ref cookie and redirects to the app; unknown codes just redirect', async () => {
    const { api, code } = await affiliate();
    const r = await fetch(`${t.base}/r/${code}`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`${t.ctx.config.appUrl}/register?ref=${code}`);
    const cookie = r.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`aff_ref=${code}`);
    expect(cookie).toContain('Max-Age=5184000');
    expect(cookie).toContain('HttpOnly');
    expect((await api.get('/api/affiliate')).body.stats.clicks).toBe(1);
    const unknown = await fetch(`${t.base}/r/nosuchcode`, { redirect: 'manual' });
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get('location')).toBe(`${t.ctx.config.appUrl}/`);
    expect(unknown.headers.get('set-cookie')).toBeNull();
    await api.patch('/api/affiliate', { promoCode: `P${Date.now()}` });
    const promo = str((await api.get('/api/affiliate')).body.affiliate.promoCode);
    const viaPromo = await fetch(`${t.base}/r/${promo.toLowerCase()}`, { redirect: 'manual' });
    expect(viaPromo.headers.get('set-cookie')).toContain(`aff_ref=${code}`);
  });

  it('attributes a workspace registered with the cookie and pays 10 % of what it pays', async () => {
    const { api, code } = await affiliate();
    const reg = await t.api(null, { cookie: `aff_ref=${code}`, 'x-forwarded-for': '10.77.0.1' }).post('/api/auth/register', { email: `referred-${Date.now()}@example.com`, password: 'secret-pass' });
    expect(reg.status).toBe(200);
    const customer = t.api(str(reg.body.token));
    expect((await api.get('/api/affiliate')).body.stats).toMatchObject({ signups: 1, earnings: 0 });
    const sid = str((await customer.post('/api/billing/checkout', { bundle: 'credits-5000' })).body.sessionId);
    stripe.pay(sid);
    await customer.post('/api/billing/checkout/confirm', { sessionId: sid });
    await customer.post('/api/billing/checkout/confirm', { sessionId: sid });
    const d = (await api.get('/api/affiliate')).body;
    expect(d.stats).toMatchObject({ signups: 1, payingCustomers: 1, earnings: 4.5, available: 4.5 });
    expect(arr(d.commissions)).toEqual([expect.objectContaining({ fee: 45, commission: 4.5 })]);
    expect(arr(d.links)[0]).toMatchObject({ signups: 1 });
    // An unattributed workspace earns the affiliate nothing.
    const plain = await t.signup();
    const sid2 = str((await plain.post('/api/billing/checkout', { bundle: 'credits-1000' })).body.sessionId);
    stripe.pay(sid2);
    await plain.post('/api/billing/checkout/confirm', { sessionId: sid2 });
    expect((await api.get('/api/affiliate')).body.stats.earnings).toBe(4.5);
  });
});

describe('payout method, KYC and payouts', () => {
  it('validates the payout method', async () => {
    const { api } = await affiliate();
    expect((await api.post('/api/affiliate/payout-method', { method: 'bank', dest: 'x' })).body).toEqual({ error: 'method: method must be paypal or crypto' });
    expect((await api.post('/api/affiliate/payout-method', { method: 'paypal', dest: 'nope' })).body).toEqual({ error: 'dest: a PayPal payout needs the account email' });
    expect((await api.post('/api/affiliate/payout-method', { method: 'crypto', dest: 'TXYZabcdefghijklmnop' })).body).toEqual({ error: 'network is required' });
    const ok = await api.post('/api/affiliate/payout-method', { method: 'crypto', dest: 'TXYZabcdefghijklmnop', network: 'USDT-TRC20' });
    expect(ok.body.payoutMethod).toEqual({ method: 'crypto', dest: 'TXYZabcdefghijklmnop', network: 'USDT-TRC20' });
    expect((await api.get('/api/affiliate')).body.affiliate.payoutMethod).toEqual({ method: 'crypto', dest: 'TXYZabcdefghijklmnop', network: 'USDT-TRC20' });
  });

  it('takes an image or PDF as KYC and marks it pending for operator review', async () => {
    const { api, affId } = await affiliate();
    expect((await api.post('/api/affiliate/kyc', { document: Buffer.from('hello world').toString('base64') })).body).toEqual({ error: 'document must be an image (PNG, JPEG, WebP) or a PDF' });
    expect((await api.post('/api/affiliate/kyc', {})).body).toEqual({ error: 'document is required' });
    const r = await api.post('/api/affiliate/kyc', { document: `data:image/png;base64,${PNG}` });
    expect(r.body.kyc).toMatchObject({ status: 'pending', mime: 'image/png' });
    const pdf = await api.post('/api/affiliate/kyc', { document: Buffer.from('%PDF-1.7\n1 0 obj\n').toString('base64') });
    expect(pdf.body.kyc).toMatchObject({ status: 'pending', mime: 'application/pdf' });
    expect((await api.get('/api/affiliate')).body.affiliate.kycStatus).toBe('pending');
    const stored = (await t.ctx.db.selectFrom('affiliate_kyc').select(['mime', 'data', 'status']).where('affiliate_id', '=', affId).orderBy('submitted_at').execute()).map((k) => ({ mime: k.mime, n: k.data.length, status: k.status }));
    expect(stored).toEqual([{ mime: 'image/png', n: 72, status: 'pending' }, { mime: 'application/pdf', n: 17, status: 'pending' }]);
    await t.ctx.db.updateTable('affiliates').set({ kyc_status: 'verified' }).where('id', '=', affId).execute();
    expect((await api.post('/api/affiliate/kyc', { document: PNG })).body).toEqual({ error: 'KYC already verified' });
  });

  it('pays out only with verified KYC, a payout method and at least 50 USD available', async () => {
    const { api, affId } = await affiliate();
    const db = t.ctx.db;
    await db.insertInto('affiliate_referrals').values({ workspace_id: `ws_ref_${affId}`, affiliate_id: affId, created_at: 1 }).execute();
    await recordCommission(db, `ws_ref_${affId}`, `test:${affId}:1`, 60000); // 60.00 USD commission
    expect((await api.post('/api/affiliate/payout', { amount: 50 })).body).toEqual({ error: 'KYC verification required' });
    await api.post('/api/affiliate/kyc', { document: PNG });
    expect((await api.post('/api/affiliate/payout', { amount: 50 })).body).toEqual({ error: 'KYC verification required' });
    await db.updateTable('affiliates').set({ kyc_status: 'verified' }).where('id', '=', affId).execute();
    expect((await api.post('/api/affiliate/payout', { amount: 50 })).body).toEqual({ error: 'payout method required' });
    await api.post('/api/affiliate/payout-method', { method: 'paypal', dest: 'kenji@example.com' });
    expect((await api.post('/api/affiliate/payout', { amount: 49.99 })).body).toEqual({ error: 'minimum payout is 50 USD' });
    expect((await api.post('/api/affiliate/payout', { amount: 60.01 })).body).toEqual({ error: 'amount exceeds the available balance' });
    expect((await api.post('/api/affiliate/payout', { amount: 50.001 })).status).toBe(400);
    const ok = await api.post('/api/affiliate/payout', { amount: 55 });
    expect(ok.body).toMatchObject({ payout: { amount: 55, status: 'requested', method: { method: 'paypal', dest: 'kenji@example.com' } }, available: 5 });
    expect((await api.post('/api/affiliate/payout', { amount: 50 })).body).toEqual({ error: 'amount exceeds the available balance' });
    expect((await api.get('/api/affiliate')).body.stats).toMatchObject({ earnings: 60, pendingPayout: 55, available: 5 });
  });
});

describe('leaderboard and assets', () => {
  it('lists the top 10 by earnings and the caller rank', async () => {
    const insert = (i: number) =>
      t.ctx.db.transaction().execute(async (tx) => {
        const uid = `usr_lb_${i}`;
        await tx.insertInto('users').values({ id: uid, email: `lb${i}@example.com`, password_hash: 'x', created_at: 1 }).execute();
        await tx.insertInto('affiliates').values({ id: `aff_lb_${i}`, user_id: uid, workspace_id: 'ws_none', display_name: `Top ${i}`, created_at: i, updated_at: 1 }).execute();
        await tx.insertInto('affiliate_commissions').values({ affiliate_id: `aff_lb_${i}`, workspace_id: 'ws_none', ref: `lb:${i}`, fee_cents: 10_000_000 + i * 1000, commission_cents: 1_000_000 + i * 100, created_at: 1 }).execute();
      });
    for (let i = 1; i <= 12; i++) await insert(i);
    const { api } = await affiliate();
    const r = await api.get('/api/affiliate/leaderboard');
    const rows = arr(r.body.leaderboard);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual({ rank: 1, displayName: 'Top 12', earnings: 10012, referrals: 0, you: false });
    expect(rows.map((x) => x.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(Number(r.body.me.rank)).toBeGreaterThan(12);
    expect(r.body.me).toMatchObject({ earnings: 0 });
    const outsider = await t.signup();
    expect((await outsider.get('/api/affiliate/leaderboard')).body.me).toBeNull();
  });

  it('serves the brand kit', async () => {
    const api = await t.signup();
    const r = await api.get('/api/affiliate/assets');
    expect(arr(r.body.colors)[0]).toMatchObject({ hex: expect.stringMatching(/^#[0-9A-F]{6}$/) });
    expect(arr(r.body.logos).every((l) => str(l.url).startsWith(t.ctx.config.appUrl))).toBe(true);
    for (const c of arr(r.body.creatives)) {
      expect(str(c.caption).length).toBeGreaterThan(10);
      expect(arr(c.hashtags).length).toBeGreaterThan(0);
      expect(str(c.size)).toMatch(/^\d+x\d+$/);
    }
    expect((await t.api().get('/api/affiliate/assets')).status).toBe(401);
  });
});
