import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAgentsConfig } from '../config.testkit';
import { arr, startAgentsServer, str, type AgentsTestServer, type Api } from '../harness.testkit';
import { startFakePayPal, type FakePayPal } from './fake-providers.testkit';

let paypal: FakePayPal;
let t: AgentsTestServer;

beforeAll(async () => {
  paypal = await startFakePayPal('pp-client', 'pp-secret');
  t = await startAgentsServer({
    payments: { ...testAgentsConfig('/unused').payments, paypalClientId: 'pp-client', paypalClientSecret: 'pp-secret', paypalWebhookId: 'WH-ID-9', paypalApiUrl: paypal.url, allowInternal: allowOnlyHostsOf(paypal.url) },
  });
});
afterAll(async () => {
  await t.close();
  await paypal.close();
});

const balance = async (api: Api) => Number((await api.get('/api/billing/wallet')).body.balance);
const purchases = async (api: Api) => arr((await api.get('/api/billing/wallet')).body.entries).filter((e) => str(e.reason) === 'purchase');
const captures = (orderId: string) => paypal.requests.filter((r) => r.path === `/v2/checkout/orders/${orderId}/capture`).length;

function notify(id: string, type: string, resource: Record<string, unknown>, sig = paypal.validSignature) {
  return t.api().post('/api/billing/paypal/webhook', { id, event_type: type, resource }, {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.example.test/cert.pem',
    'paypal-transmission-id': `tx-${id}`,
    'paypal-transmission-sig': sig,
    'paypal-transmission-time': new Date().toISOString(),
  });
}

async function order(api: Api, bundle = 'credits-1000') {
  const r = await api.post('/api/billing/checkout', { bundle, provider: 'paypal' });
  expect(r.status).toBe(200);
  return str(r.body.orderId);
}

describe('credit bundles through the second provider (Orders API against a local fake)', () => {
  it('creates an order, refuses confirmation until approved, captures once and credits once', async () => {
    const api = await t.signup();
    const r = await api.post('/api/billing/checkout', { bundle: 'credits-5000', provider: 'paypal' });
    expect(r.status).toBe(200);
    const id = str(r.body.orderId);
    expect(r.body).toEqual({ provider: 'paypal', orderId: id, url: `https://paypal.example.test/checkoutnow?token=${id}`, bundle: 'credits-5000' });
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    expect(paypal.requests.find((q) => q.path === '/v2/checkout/orders')?.body).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [{ reference_id: 'credits-5000', custom_id: ws, amount: { currency_code: 'USD', value: '45.00' } }],
    });

    const early = await api.post('/api/billing/checkout/confirm', { orderId: id });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ error: 'payment not completed' });
    expect(await balance(api)).toBe(100);

    paypal.approveOrder(id);
    const first = await api.post('/api/billing/checkout/confirm', { orderId: id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ credited: 5000, alreadyConfirmed: false, wallet: { balance: 5100 } });
    const again = await api.post('/api/billing/checkout/confirm', { orderId: id });
    expect(again.body).toMatchObject({ credited: 0, alreadyConfirmed: true, wallet: { balance: 5100 } });
    expect(captures(id)).toBe(1);
    expect(await purchases(api)).toHaveLength(1);

    const stranger = await t.signup();
    const s = await stranger.post('/api/billing/checkout/confirm', { orderId: id });
    expect(s.status).toBe(404);
    expect(s.body).toEqual({ error: 'order not found' });
    expect((await api.post('/api/billing/checkout/confirm', { orderId: 'ORDER-unknown' })).body).toEqual({ error: 'order not found' });
  });

  it('two confirmations racing each other credit the bundle once', async () => {
    const api = await t.signup();
    const id = await order(api);
    paypal.approveOrder(id);
    const both = await Promise.all([api.post('/api/billing/checkout/confirm', { orderId: id }), api.post('/api/billing/checkout/confirm', { orderId: id })]);
    expect(both.map((b) => b.status)).toEqual([200, 200]);
    expect(both.map((b) => Number(b.body.credited)).sort()).toEqual([0, 1000]);
    expect(await balance(api)).toBe(1100);
    expect(await purchases(api)).toHaveLength(1);
  });

  it('a verified order notice captures and credits once; a bad signature and replays change nothing', async () => {
    const api = await t.signup();
    const id = await order(api);
    paypal.approveOrder(id);
    const forged = await notify('WH-o-1', 'CHECKOUT.ORDER.APPROVED', { id }, 'forged');
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'invalid signature' });
    expect(captures(id)).toBe(0);
    expect(await balance(api)).toBe(100);

    const ok = await notify('WH-o-1', 'CHECKOUT.ORDER.APPROVED', { id });
    expect(ok.body).toEqual({ received: true });
    expect(await balance(api)).toBe(1100);
    expect((await notify('WH-o-1', 'CHECKOUT.ORDER.APPROVED', { id })).body).toEqual({ received: true, duplicate: true });
    await notify('WH-o-2', 'PAYMENT.CAPTURE.COMPLETED', { id: 'CAPTURE-x', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: id } } });
    expect((await api.post('/api/billing/checkout/confirm', { orderId: id })).body).toMatchObject({ credited: 0, alreadyConfirmed: true });
    expect(await balance(api)).toBe(1100);
    expect(captures(id)).toBe(1);
    const verify = paypal.requests.filter((q) => q.path === '/v1/notifications/verify-webhook-signature').at(-1);
    expect(verify?.body).toMatchObject({ webhook_id: 'WH-ID-9', webhook_event: { id: 'WH-o-2' } });
  });

  it('a notice whose capture failed at the provider is handled again when the provider retries it', async () => {
    const api = await t.signup();
    const id = await order(api);
    paypal.approveOrder(id);
    paypal.captureFailures = 1;
    const failed = await notify('WH-r-1', 'CHECKOUT.ORDER.APPROVED', { id });
    expect(failed.status).toBe(502);
    expect(await balance(api)).toBe(100);
    const retried = await notify('WH-r-1', 'CHECKOUT.ORDER.APPROVED', { id });
    expect(retried.body).toEqual({ received: true });
    expect(await balance(api)).toBe(1100);
    expect((await notify('WH-r-1', 'CHECKOUT.ORDER.APPROVED', { id })).body).toEqual({ received: true, duplicate: true });
  });

  it('a capture still pending credits nothing until its completion notice arrives', async () => {
    const api = await t.signup();
    const id = await order(api);
    paypal.approveOrder(id);
    paypal.captureStatus = 'PENDING';
    try {
      const r = await api.post('/api/billing/checkout/confirm', { orderId: id });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ error: 'payment not completed' });
    } finally {
      paypal.captureStatus = 'COMPLETED';
    }
    expect(await balance(api)).toBe(100);
    const units = paypal.orders.get(id)?.purchase_units as { payments: { captures: { status: string }[] } }[];
    units[0].payments.captures[0].status = 'COMPLETED';
    await notify('WH-p-1', 'PAYMENT.CAPTURE.COMPLETED', { id: 'CAPTURE-p', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: id } } });
    expect(await balance(api)).toBe(1100);
    expect(captures(id)).toBe(1);
  });

  it('refuses a capture whose amount differs from the order', async () => {
    const api = await t.signup();
    const id = await order(api);
    const units = paypal.orders.get(id)?.purchase_units as { amount: { value: string } }[];
    units[0].amount.value = '1.00';
    paypal.approveOrder(id);
    const r = await api.post('/api/billing/checkout/confirm', { orderId: id });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: 'paid amount does not match the order' });
    expect(await balance(api)).toBe(100);
  });

  it('the first provider stays unconfigured (503) beside the second; anonymous callers are refused', async () => {
    const api = await t.signup();
    expect((await api.post('/api/billing/checkout', { bundle: 'credits-1000' })).body).toEqual({ error: 'payments not configured' });
    expect((await t.api().post('/api/billing/checkout', { provider: 'paypal' })).status).toBe(401);
  });
});
