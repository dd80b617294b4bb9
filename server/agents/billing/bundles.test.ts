import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAgentsConfig } from '../config.testkit';
import { arr, startAgentsServer, str, type AgentsTestServer, type Api } from '../harness.testkit';
import { startFakePayPal, startFakeStripe, type FakePayPal, type FakeStripe } from './fake-providers.testkit';

const KEY = 'sk_test_bundles';
let stripe: FakeStripe;
let paypal: FakePayPal;
let t: AgentsTestServer;
let ops: Awaited<ReturnType<AgentsTestServer['signup']>>;

beforeAll(async () => {
  stripe = await startFakeStripe(KEY);
  paypal = await startFakePayPal('pp-client', 'pp-secret');
  t = await startAgentsServer({
    adminEmails: ['ops@example.com'],
    payments: { ...testAgentsConfig('/unused').payments, stripeSecretKey: KEY, stripeApiUrl: stripe.url, paypalClientId: 'pp-client', paypalClientSecret: 'pp-secret', paypalApiUrl: paypal.url, allowInternal: allowOnlyHostsOf(paypal.url, stripe.url) },
  });
  ops = await t.operator('ops@example.com');
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await paypal.close();
});

const OPERATOR_BUNDLES = [
  { id: 'starter-500', name: '500 credits', credits: 500, priceCents: 600 },
  { id: 'mega', name: '100,000 credits', credits: 100_000, priceCents: 50_000 },
];
const lastSession = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)?.body;
const balance = async (api: Api) => Number((await api.get('/api/billing/wallet')).body.balance);

describe("operator's credit bundles", () => {
  it('pricing, Stripe and PayPal checkout sell the operator bundles once set, the built-in ones otherwise', async () => {
    const api = await t.signup();
    const builtIn = (await t.api().get('/api/billing/pricing')).body;
    expect(arr(builtIn.bundles).map((b) => b.id)).toEqual(['credits-1000', 'credits-5000', 'credits-20000']);

    expect((await ops.put('/api/admin/bundles', { bundles: OPERATOR_BUNDLES })).status).toBe(200);
    const pricing = (await t.api().get('/api/billing/pricing')).body;
    expect(pricing.bundles).toEqual([
      { id: 'starter-500', name: '500 credits', credits: 500, price: 6, priceCents: 600 },
      { id: 'mega', name: '100,000 credits', credits: 100_000, price: 500, priceCents: 50_000 },
    ]);

    const c = await api.post('/api/billing/checkout', { bundle: 'mega' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ provider: 'stripe', bundle: 'mega' });
    expect(lastSession()).toMatchObject({ line_items: [{ price_data: { unit_amount: '50000', product_data: { name: '100,000 credits' } } }], metadata: { bundle: 'mega', credits: '100000' } });

    // No bundle named: the first one on sale.
    expect((await api.post('/api/billing/checkout', {})).body).toMatchObject({ bundle: 'starter-500' });
    expect(lastSession()).toMatchObject({ line_items: [{ price_data: { unit_amount: '600' } }] });

    const order = await api.post('/api/billing/checkout', { bundle: 'starter-500', provider: 'paypal' });
    expect(order.body).toMatchObject({ provider: 'paypal', bundle: 'starter-500' });
    expect(paypal.orders.get(str(order.body.orderId))?.purchase_units).toMatchObject([{ reference_id: 'starter-500', amount: { currency_code: 'USD', value: '6.00' } }]);
  });

  it('refuses a bundle id that is no longer on sale, naming the ones that are, and stores nothing', async () => {
    const api = await t.signup();
    await ops.put('/api/admin/bundles', { bundles: OPERATOR_BUNDLES });
    const sessions = stripe.sessions.size;
    const orders = paypal.orders.size;
    for (const provider of ['stripe', 'paypal']) {
      const r = await api.post('/api/billing/checkout', { bundle: 'credits-1000', provider });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'bundle: unknown bundle', bundles: ['starter-500', 'mega'] });
    }
    expect(stripe.sessions.size).toBe(sessions);
    expect(paypal.orders.size).toBe(orders);
    const ar = await api.post('/api/billing/auto-recharge', { enabled: true, threshold: 10, bundle: 'credits-5000' });
    expect(ar.body).toEqual({ error: 'bundle: unknown bundle', bundles: ['starter-500', 'mega'] });
  });

  it('a session bought before the operator withdrew its bundle still credits what was paid for', async () => {
    const api = await t.signup();
    await ops.put('/api/admin/bundles', { bundles: OPERATOR_BUNDLES });
    const sid = str((await api.post('/api/billing/checkout', { bundle: 'starter-500' })).body.sessionId);
    await ops.put('/api/admin/bundles', { bundles: [OPERATOR_BUNDLES[1]] });
    stripe.pay(sid);
    const r = await api.post('/api/billing/checkout/confirm', { sessionId: sid });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ credited: 500, alreadyConfirmed: false, wallet: { balance: 600 } });
    expect(await balance(api)).toBe(600);
    expect((await api.post('/api/billing/checkout', { bundle: 'starter-500' })).status).toBe(400);
  });

  it('after a reset the built-in bundles are on sale again', async () => {
    await ops.put('/api/admin/bundles', { bundles: OPERATOR_BUNDLES });
    await ops.post('/api/admin/bundles/reset');
    expect(arr((await t.api().get('/api/billing/pricing')).body.bundles).map((b) => b.id)).toEqual(['credits-1000', 'credits-5000', 'credits-20000']);
    const api = await t.signup();
    expect((await api.post('/api/billing/checkout', { bundle: 'credits-1000' })).status).toBe(200);
    expect((await api.post('/api/billing/checkout', { bundle: 'mega' })).status).toBe(400);
  });
});
