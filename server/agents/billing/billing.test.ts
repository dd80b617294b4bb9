import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

describe('billing without payment providers', () => {
  it('serves credit-bundle pricing publicly', async () => {
    const r = await t.api().get('/api/billing/pricing');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ currency: 'USD', creditCost: 1, trial: { plan: 'starter', days: 14 } });
    expect(arr(r.body.bundles)[0]).toEqual({ id: 'credits-1000', name: '1,000 credits', credits: 1000, price: 10, priceCents: 1000 });
    expect(arr(r.body.plans).map((p) => p.id)).toEqual(['starter', 'pro', 'business']);
  });

  it('shows the wallet as the ledger: signup credits, one debit per chat turn', async () => {
    const { api, agentId } = await t.withAgent();
    await api.post('/api/sources', { type: 'qa', question: 'Opening hours?', answer: 'Nine to six.' });
    await api.post('/api/chat', { agentId, message: 'Opening hours?' });
    const w = await api.get('/api/billing/wallet');
    expect(w.status).toBe(200);
    expect(w.body).toMatchObject({ balance: 99, currency: 'credits', creditCost: 1, autoRecharge: { enabled: false } });
    expect(arr(w.body.entries).map((e) => [e.reason, e.delta, e.balance])).toEqual([['chat', -1, 99], ['signup', 100, 100]]);
    expect((await t.api().get('/api/billing/wallet')).status).toBe(401);
  });

  it('reports no subscription, the plans and which providers are configured', async () => {
    const api = await t.signup();
    const r = await api.get('/api/billing/subscription');
    expect(r.body.subscription).toMatchObject({ status: 'none', plan: null, tier: 'free', paused: false, trial: { used: false, endsAt: null, days: 14 }, paymentMethod: null });
    expect(arr(r.body.plans)).toHaveLength(3);
    expect(r.body.providers).toEqual({ stripe: false, paypal: false });
  });

  it("answers 503 {error:'payments not configured'} on every provider route while unconfigured", async () => {
    const api = await t.signup();
    const calls = [
      api.post('/api/billing/checkout', { bundle: 'credits-1000' }),
      api.post('/api/billing/checkout/confirm', { sessionId: 'cs_x' }),
      api.post('/api/billing/checkout', { bundle: 'credits-1000', provider: 'paypal' }),
      api.post('/api/billing/checkout/confirm', { orderId: 'ORDER-1' }),
      api.post('/api/billing/paypal/confirm', { subscriptionId: 'I-1' }),
      api.post('/api/billing/subscribe', { plan: 'pro' }),
      api.post('/api/billing/subscribe', { plan: 'pro', provider: 'paypal' }),
      api.post('/api/billing/payment-method', { paymentMethodId: 'pm_card_visa' }),
      t.api().post('/api/billing/webhook', { id: 'evt_1' }, { 'stripe-signature': 't=1,v1=00' }),
      t.api().post('/api/billing/paypal/webhook', { id: 'WH-1', event_type: 'PAYMENT.SALE.COMPLETED' }),
    ];
    for (const r of await Promise.all(calls)) {
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ error: 'payments not configured' });
    }
  });

  it('validates bodies: unknown bundle and plan, missing ids, unknown provider', async () => {
    const api = await t.signup();
    expect((await api.post('/api/billing/subscribe', {})).body).toEqual({ error: 'plan is required' });
    expect((await api.post('/api/billing/subscribe', { plan: 'pro', provider: 'bank' })).body).toEqual({ error: 'provider: provider must be stripe or paypal' });
    expect((await api.post('/api/billing/checkout/confirm', {})).body).toEqual({ error: 'sessionId or orderId is required' });
    expect((await api.post('/api/billing/checkout', { provider: 'card' })).body).toEqual({ error: 'provider: provider must be stripe or paypal' });
    expect((await api.post('/api/billing/paypal/confirm', {})).body).toEqual({ error: 'subscriptionId is required' });
    expect((await api.post('/api/billing/auto-recharge', { enabled: 'yes' })).status).toBe(400);
  });

  it('auto-recharge needs a known bundle and a payment method; turning it off always works', async () => {
    const api = await t.signup();
    expect((await api.post('/api/billing/auto-recharge', { enabled: true, threshold: 50, bundle: 'nope' })).body).toEqual({ error: 'bundle: unknown bundle', bundles: ['credits-1000', 'credits-5000', 'credits-20000'] });
    const r = await api.post('/api/billing/auto-recharge', { enabled: true, threshold: 50, bundle: 'credits-1000' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: 'add a payment method first' });
    const off = await api.post('/api/billing/auto-recharge', { enabled: false });
    expect(off.body.autoRecharge).toEqual({ enabled: false, threshold: 100, bundle: null });
  });

  it('cancel without a subscription is a 409 and leaves the bot running', async () => {
    const api = await t.signup();
    expect((await api.post('/api/billing/cancel')).body).toEqual({ error: 'no active subscription' });
    expect((await api.get('/api/auth/me')).body.billing.status).toBe('active');
  });

  it('a trial past its end reads as expired and the workspace falls back to the free tier', async () => {
    const api = await t.signup();
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    await api.get('/api/billing/subscription');
    await t.ctx.db.updateTable('subscriptions').set({ status: 'trialing', plan: 'starter', trial_used: 1, trial_ends_at: Date.now() - 1000 }).where('workspace_id', '=', ws).execute();
    await t.ctx.db.updateTable('workspaces').set({ tier: 'starter' }).where('id', '=', ws).execute();
    const r = await api.get('/api/billing/subscription');
    expect(r.body.subscription).toMatchObject({ status: 'expired', tier: 'free', trial: { used: true } });
    expect((await api.get('/api/workspace/general')).body.workspace.tier).toBe('free');
  });

  it("refuses viewers (and members) on paying routes: billing is the owner's", async () => {
    const owner = await t.signup();
    const viewer = await t.join(owner, 'viewer');
    const r = await viewer.post('/api/billing/checkout', { bundle: 'credits-1000' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'workspace owner only', role: 'viewer', required: 'owner' });
    expect((await viewer.post('/api/billing/cancel')).status).toBe(403);
    expect((await viewer.get('/api/billing/wallet')).body.balance).toBe(100);
    expect(str((await viewer.get('/api/billing/subscription')).body.subscription.status)).toBe('none');
  });
});
