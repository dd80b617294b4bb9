import Stripe from 'stripe';
import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAgentsConfig } from '../config.testkit';
import { arr, startAgentsServer, str, type Api, type AgentsTestServer } from '../harness.testkit';
import { setBalance } from './ledger';
import { startFakePayPal, startFakeStripe, type FakePayPal, type FakeStripe } from './fake-providers.testkit';

const KEY = 'sk_test_fake_key';
const WHSEC = 'whsec_test_secret';
let stripe: FakeStripe;
let paypal: FakePayPal;
let t: AgentsTestServer;
const signer = new Stripe('sk_test_signer');

beforeAll(async () => {
  stripe = await startFakeStripe(KEY);
  paypal = await startFakePayPal('pp-client', 'pp-secret');
  t = await startAgentsServer({
    payments: {
      ...testAgentsConfig('/unused').payments,
      stripeSecretKey: KEY,
      stripeWebhookSecret: WHSEC,
      stripeApiUrl: stripe.url,
      paypalClientId: 'pp-client',
      paypalClientSecret: 'pp-secret',
      paypalWebhookId: 'WH-ID-1',
      paypalApiUrl: paypal.url,
      allowInternal: allowOnlyHostsOf(paypal.url, stripe.url),
    },
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await paypal.close();
});

const balance = async (api: Api) => Number((await api.get('/api/billing/wallet')).body.balance);

function stripeEvent(id: string, type: string, object: Record<string, unknown>, timestamp?: number) {
  const payload = JSON.stringify({ id, object: 'event', type, data: { object } });
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: WHSEC, ...(timestamp ? { timestamp } : {}) });
  return t.api().request('POST', '/api/billing/webhook', payload, { 'stripe-signature': header });
}

function paypalEvent(id: string, type: string, resource: Record<string, unknown>, sig = paypal.validSignature) {
  return t.api().post('/api/billing/paypal/webhook', { id, event_type: type, resource }, {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.example.test/cert.pem',
    'paypal-transmission-id': `tx-${id}`,
    'paypal-transmission-sig': sig,
    'paypal-transmission-time': new Date().toISOString(),
  });
}

describe('first provider (official SDK against a local fake)', () => {
  it('sells a bundle: hosted checkout, confirm refused until paid, then credits exactly once', async () => {
    const api = await t.signup();
    const c = await api.post('/api/billing/checkout', { bundle: 'credits-5000' });
    expect(c.status).toBe(200);
    const sid = str(c.body.sessionId);
    expect(c.body.url).toBe(`https://checkout.example.test/pay/${sid}`);
    const sent = stripe.requests.find((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST');
    expect(sent?.auth).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toMatchObject({ mode: 'payment', line_items: [{ price_data: { currency: 'usd', unit_amount: '4500' } }] });

    const early = await api.post('/api/billing/checkout/confirm', { sessionId: sid });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ error: 'payment not completed' });
    expect(await balance(api)).toBe(100);

    stripe.pay(sid);
    const first = await api.post('/api/billing/checkout/confirm', { sessionId: sid });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ credited: 5000, alreadyConfirmed: false, wallet: { balance: 5100 } });
    const again = await api.post('/api/billing/checkout/confirm', { sessionId: sid });
    expect(again.body).toMatchObject({ credited: 0, alreadyConfirmed: true, wallet: { balance: 5100 } });
    expect(arr((await api.get('/api/billing/wallet')).body.entries).filter((e) => str(e.reason) === 'purchase')).toHaveLength(1);

    const stranger = await t.signup();
    expect((await stranger.post('/api/billing/checkout/confirm', { sessionId: sid })).body).toEqual({ error: 'checkout session not found' });
    expect((await api.post('/api/billing/checkout', { bundle: 'credits-7' })).body).toMatchObject({ error: 'bundle: unknown bundle' });
  });

  it('verifies the signed webhook: a paid session credits once, replays and bad or stale signatures change nothing', async () => {
    const api = await t.signup();
    const sid = str((await api.post('/api/billing/checkout', { bundle: 'credits-1000' })).body.sessionId);
    const session = stripe.pay(sid);

    const forged = await t.api().request('POST', '/api/billing/webhook', JSON.stringify({ id: 'evt_forged', type: 'checkout.session.completed', data: { object: session } }), { 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` });
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'invalid signature' });
    const stale = await stripeEvent('evt_stale', 'checkout.session.completed', session, Math.floor(Date.now() / 1000) - 400);
    expect(stale.body).toEqual({ error: 'invalid signature' });
    expect((await t.api().post('/api/billing/webhook', { id: 'evt_nosig' })).body).toEqual({ error: 'invalid signature' });
    expect(await balance(api)).toBe(100);

    const ok = await stripeEvent(`evt_${sid}`, 'checkout.session.completed', session);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ received: true });
    expect(await balance(api)).toBe(1100);
    expect((await stripeEvent(`evt_${sid}`, 'checkout.session.completed', session)).body).toEqual({ received: true, duplicate: true });
    expect((await stripeEvent(`evt_${sid}_2`, 'checkout.session.completed', session)).body).toEqual({ received: true });
    expect((await api.post('/api/billing/checkout/confirm', { sessionId: sid })).body).toMatchObject({ credited: 0, alreadyConfirmed: true });
    expect(await balance(api)).toBe(1100);
  });

  it('subscribes, renews on a paid invoice, and cancel pauses the bot (chat answers 402)', async () => {
    const { api, agentId } = await t.withAgent();
    const s = await api.post('/api/billing/subscribe', { plan: 'pro' });
    expect(s.body).toMatchObject({ provider: 'stripe', plan: 'pro' });
    const paid = stripe.pay(str(s.body.sessionId));
    const conf = await api.post('/api/billing/checkout/confirm', { sessionId: str(s.body.sessionId) });
    expect(conf.body).toMatchObject({ credited: 10000, subscription: { status: 'active', plan: 'pro', provider: 'stripe', tier: 'pro', paused: false } });
    expect((await api.post('/api/billing/subscribe', { plan: 'pro' })).body).toEqual({ error: 'already subscribed to this plan' });

    const sub = String(paid.subscription);
    await stripeEvent('evt_inv_first', 'invoice.paid', { id: 'in_first', object: 'invoice', billing_reason: 'subscription_create', subscription: sub, amount_paid: 4900 });
    expect(await balance(api)).toBe(10100);
    await stripeEvent('evt_inv_2', 'invoice.paid', { id: 'in_second', object: 'invoice', billing_reason: 'subscription_cycle', subscription: sub, amount_paid: 4900, period_end: 1_900_000_000 });
    await stripeEvent('evt_inv_2b', 'invoice.paid', { id: 'in_second', object: 'invoice', billing_reason: 'subscription_cycle', subscription: sub, amount_paid: 4900 });
    expect(await balance(api)).toBe(20100);

    const c = await api.post('/api/billing/cancel');
    expect(c.status).toBe(200);
    expect(c.body.subscription).toMatchObject({ status: 'cancelled', paused: true });
    expect(stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${sub}`)).toBe(true);
    const chat = await api.post('/api/chat', { agentId, message: 'hello' });
    expect(chat.status).toBe(402);
    expect(chat.body).toEqual({ error: 'subscription paused' });
    expect((await api.get('/api/auth/me')).body.billing.status).toBe('paused');
  });

  it('a payment method starts the free trial once; auto-recharge then tops up below the threshold', async () => {
    const { api, agentId } = await t.withAgent();
    expect((await api.post('/api/billing/payment-method', { paymentMethodId: 'bad' })).status).toBe(502);
    const r = await api.post('/api/billing/payment-method', { paymentMethodId: 'pm_card_visa' });
    expect(r.status).toBe(200);
    expect(r.body.subscription).toMatchObject({ status: 'trialing', plan: 'starter', tier: 'starter', trial: { used: true }, paymentMethod: { provider: 'stripe', brand: 'visa', last4: '4242' } });
    const ends = Date.parse(str(r.body.subscription.trial.endsAt));
    expect(ends - Date.now()).toBeGreaterThan(13.9 * 86_400_000);

    const ar = await api.post('/api/billing/auto-recharge', { enabled: true, threshold: 50, bundle: 'credits-1000' });
    expect(ar.body.autoRecharge).toEqual({ enabled: true, threshold: 50, bundle: 'credits-1000' });
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    await setBalance(t.ctx.db, ws, 50);
    await api.post('/api/sources', { type: 'qa', question: 'Hours?', answer: 'Nine to six.' });
    expect((await api.post('/api/chat', { agentId, message: 'Hours?' })).body.credits).toBe(49);
    await Promise.all([...t.ctx.background]);
    expect(await balance(api)).toBe(1049);
    const intent = stripe.requests.find((q) => q.path === '/v1/payment_intents');
    expect(intent?.body).toMatchObject({ amount: '1000', currency: 'usd', off_session: 'true', confirm: 'true' });
    expect(arr((await api.get('/api/billing/wallet')).body.entries)[0]).toMatchObject({ reason: 'recharge', delta: 1000 });

    const cancel = await api.post('/api/billing/cancel');
    expect(cancel.body.subscription).toMatchObject({ status: 'cancelled', paused: true });
    await api.post('/api/billing/payment-method', { paymentMethodId: 'pm_card_mastercard' });
    expect((await api.get('/api/billing/subscription')).body.subscription.status).toBe('cancelled');
  });
});

describe('second provider (REST against a local fake)', () => {
  it('subscribes through an approval link, confirms once, renews per sale, cancels on notice', async () => {
    const { api, agentId } = await t.withAgent();
    const s = await api.post('/api/billing/subscribe', { plan: 'starter', provider: 'paypal' });
    expect(s.status).toBe(200);
    const id = str(s.body.subscriptionId);
    expect(s.body).toMatchObject({ provider: 'paypal', url: `https://paypal.example.test/approve/${id}` });
    const token = paypal.requests.find((r) => r.path === '/v1/oauth2/token');
    expect(token?.auth).toBe(`Basic ${Buffer.from('pp-client:pp-secret').toString('base64')}`);
    expect(paypal.requests.filter((r) => r.path === '/v1/billing/plans')).toHaveLength(1);

    expect((await api.post('/api/billing/paypal/confirm', { subscriptionId: id })).body).toEqual({ error: 'subscription not approved yet' });
    paypal.approve(id);
    const c = await api.post('/api/billing/paypal/confirm', { subscriptionId: id });
    expect(c.body).toMatchObject({ credited: 2000, alreadyConfirmed: false, subscription: { status: 'active', provider: 'paypal', plan: 'starter', tier: 'starter' } });
    expect((await api.post('/api/billing/paypal/confirm', { subscriptionId: id })).body).toMatchObject({ credited: 0, alreadyConfirmed: true });
    const stranger = await t.signup();
    expect((await stranger.post('/api/billing/paypal/confirm', { subscriptionId: id })).status).toBe(404);

    const bad = await paypalEvent('WH-bad', 'PAYMENT.SALE.COMPLETED', { id: 'SALE-1', billing_agreement_id: id, amount: { total: '19.00', currency: 'USD' } }, 'forged');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid signature' });
    expect(await balance(api)).toBe(2100);
    // The first sale is the period the confirmation credited; the second is a renewal.
    await paypalEvent('WH-1', 'PAYMENT.SALE.COMPLETED', { id: 'SALE-1', billing_agreement_id: id, amount: { total: '19.00', currency: 'USD' } });
    expect(await balance(api)).toBe(2100);
    await paypalEvent('WH-2', 'PAYMENT.SALE.COMPLETED', { id: 'SALE-2', billing_agreement_id: id, amount: { total: '19.00', currency: 'USD' } });
    expect((await paypalEvent('WH-2', 'PAYMENT.SALE.COMPLETED', { id: 'SALE-2', billing_agreement_id: id })).body).toEqual({ received: true, duplicate: true });
    expect(await balance(api)).toBe(4100);
    const verify = paypal.requests.filter((r) => r.path === '/v1/notifications/verify-webhook-signature').at(-1);
    expect(verify?.body).toMatchObject({ webhook_id: 'WH-ID-1', auth_algo: 'SHA256withRSA', webhook_event: { id: 'WH-2' } });

    await paypalEvent('WH-3', 'BILLING.SUBSCRIPTION.CANCELLED', { id });
    expect((await api.get('/api/billing/subscription')).body.subscription).toMatchObject({ status: 'cancelled', paused: true });
    expect((await api.post('/api/chat', { agentId, message: 'hi' })).status).toBe(402);
  });

  it('cancel through the API calls the provider; resubscribing resumes the bot', async () => {
    const api = await t.signup();
    const id = str((await api.post('/api/billing/subscribe', { plan: 'pro', provider: 'paypal' })).body.subscriptionId);
    paypal.approve(id);
    await api.post('/api/billing/paypal/confirm', { subscriptionId: id });
    expect((await api.post('/api/billing/cancel')).body.subscription).toMatchObject({ status: 'cancelled', paused: true });
    expect(paypal.subscriptions.get(id)?.status).toBe('CANCELLED');
    const again = str((await api.post('/api/billing/subscribe', { plan: 'pro', provider: 'paypal' })).body.subscriptionId);
    paypal.approve(again);
    const c = await api.post('/api/billing/paypal/confirm', { subscriptionId: again });
    expect(c.body.subscription).toMatchObject({ status: 'active', paused: false });
    expect(paypal.requests.filter((r) => r.path === '/v1/billing/plans')).toHaveLength(2);
  });
});
