import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { recordCommission } from '../affiliate/commission';

let t: AgentsTestServer;
let ops: Awaited<ReturnType<AgentsTestServer['signup']>>;
beforeAll(async () => {
  t = await startAgentsServer({ adminEmails: ['ops@example.com'] });
  ops = await t.operator('ops@example.com');
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

async function enrolled() {
  const api = await t.signup();
  const r = await api.post('/api/affiliate/enroll', { displayName: 'Aiko', agree: true });
  expect(r.status).toBe(200);
  return { api, affId: str(r.body.affiliate.id), email: api.email };
}

describe('operator routes of the affiliate program', () => {
  it('refuse normal members with 403 admin only and callers without a session with 401', async () => {
    const { api, affId } = await enrolled();
    const routes: [string, string][] = [
      ['GET', '/api/admin/affiliates'], ['GET', `/api/admin/affiliates/${affId}/kyc-doc`], ['POST', `/api/admin/affiliates/${affId}/kyc`],
      ['GET', '/api/admin/affiliates/payouts'], ['POST', '/api/admin/affiliates/payouts/pay_x'],
    ];
    for (const [method, path] of routes) {
      const r = await api.request(method, path, method === 'POST' ? { decision: 'verified' } : undefined);
      expect([path, r.status, r.body]).toEqual([path, 403, { error: 'admin only' }]);
      expect((await t.api().request(method, path)).status, path).toBe(401);
    }
    expect((await api.get('/api/affiliate')).body.affiliate.kycStatus).toBe('none');
  });

  it('lists affiliates with their money, shows the identity document and records the KYC decision', async () => {
    const { api, affId, email } = await enrolled();
    expect((await ops.post(`/api/admin/affiliates/${affId}/kyc`, { decision: 'verified' })).body).toEqual({ error: 'no KYC document awaiting review' });
    expect((await ops.get(`/api/admin/affiliates/${affId}/kyc-doc`)).status).toBe(404);
    expect((await api.post('/api/affiliate/kyc', { document: PNG.toString('base64') })).status).toBe(200);

    const list = await ops.get('/api/admin/affiliates?status=pending');
    const row = arr(list.body.affiliates).find((a) => str(a.id) === affId);
    expect(row).toMatchObject({ user: { email }, kycStatus: 'pending', earnings: 0, available: 0 });
    expect((await ops.get('/api/admin/affiliates?status=bogus')).status).toBe(400);

    const doc = await ops.get(`/api/admin/affiliates/${affId}/kyc-doc`);
    expect(doc.body.kyc).toMatchObject({ status: 'pending', mime: 'image/png', size: PNG.length });
    expect(Buffer.from(str(doc.body.kyc.dataBase64), 'base64').equals(PNG)).toBe(true);

    expect((await ops.post(`/api/admin/affiliates/${affId}/kyc`, { decision: 'maybe' })).status).toBe(400);
    const ok = await ops.post(`/api/admin/affiliates/${affId}/kyc`, { decision: 'verified', note: '確認済み' });
    expect(ok.body.affiliate).toMatchObject({ id: affId, kycStatus: 'verified' });
    expect((await api.get('/api/affiliate')).body.affiliate.kycStatus).toBe('verified');
    expect((await ops.post(`/api/admin/affiliates/${affId}/kyc`, { decision: 'rejected' })).status).toBe(409);
    expect((await ops.get('/api/admin/affiliates/aff_missing/kyc-doc')).body).toEqual({ error: 'affiliate not found' });
  });

  it('decides a payout once: paid leaves the balance, rejected returns it', async () => {
    const { api, affId } = await enrolled();
    await api.post('/api/affiliate/kyc', { document: PNG.toString('base64') });
    await ops.post(`/api/admin/affiliates/${affId}/kyc`, { decision: 'verified' });
    expect((await api.post('/api/affiliate/payout-method', { method: 'paypal', dest: 'aiko@example.com' })).status).toBe(200);
    t.ctx.legacyDb.prepare('INSERT INTO affiliate_referrals (workspace_id, affiliate_id, created_at) VALUES (?, ?, 1)').run(`ws_ref_${affId}`, affId);
    expect((await recordCommission(t.ctx.db, `ws_ref_${affId}`, `stripe:${affId}`, 150000))?.commissionCents).toBe(15000);

    const first = await api.post('/api/affiliate/payout', { amount: 60 });
    expect(first.status).toBe(200);
    const second = await api.post('/api/affiliate/payout', { amount: 50 });
    expect(second.status).toBe(200);
    const requested = arr((await ops.get('/api/admin/affiliates/payouts?status=requested')).body.payouts).filter((p) => str(p.affiliate.id) === affId);
    expect(requested.map((p) => Number(p.amount)).sort()).toEqual([50, 60]);
    const [p50, p60] = [requested.find((p) => Number(p.amount) === 50), requested.find((p) => Number(p.amount) === 60)];

    const paid = await ops.post(`/api/admin/affiliates/payouts/${String(p60?.id)}`, { decision: 'paid' });
    expect(paid.body.payout).toMatchObject({ status: 'paid', amount: 60 });
    expect(paid.body.affiliate).toMatchObject({ earnings: 150, paid: 60, requested: 50, available: 40 });
    const rejected = await ops.post(`/api/admin/affiliates/payouts/${String(p50?.id)}`, { decision: 'rejected', note: '口座名義が一致しません' });
    expect(rejected.body.payout).toMatchObject({ status: 'rejected', note: '口座名義が一致しません' });
    expect(rejected.body.affiliate).toMatchObject({ paid: 60, requested: 0, available: 90 });
    expect((await ops.post(`/api/admin/affiliates/payouts/${String(p60?.id)}`, { decision: 'rejected' })).body).toEqual({ error: 'payout already paid' });
    expect((await ops.post('/api/admin/affiliates/payouts/pay_missing', { decision: 'paid' })).status).toBe(404);
    expect((await api.get('/api/affiliate')).body.stats).toMatchObject({ available: 90 });
  });
});
