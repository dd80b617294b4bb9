import { notFound, upstreamFailed } from '../../core/errors';
import { guardedFetch, type OutboundRequest, type OutboundResponse } from '../../core/security/ssrf';
import type { PaymentsConfig } from '../config';
import type { AgentsDb } from '../schema';
import { paypalPlanId, savePaypalPlan } from './payments.repository';
import type { Plan } from './catalog';
import { notConfigured } from './stripe';

export interface PayPalSubscription {
  id: string;
  status: string;
  plan_id?: string;
  custom_id?: string;
  links?: { href: string; rel: string }[];
  billing_info?: { next_billing_time?: string };
}

export interface PayPalMoney {
  currency_code: string;
  value: string;
}

export interface PayPalCapture {
  id: string;
  status: string;
  amount?: PayPalMoney;
}

/** A one-off order (credit bundle) of the Orders v2 API. */
export interface PayPalOrder {
  id: string;
  status: string;
  links?: { href: string; rel: string }[];
  purchase_units?: { reference_id?: string; custom_id?: string; amount?: PayPalMoney; payments?: { captures?: PayPalCapture[] } }[];
}

interface CallOptions {
  headers?: Record<string, string>;
  /** Error text of a 404 from the provider. */
  missing?: string;
}

export const paypalConfigured = (cfg: PaymentsConfig) => Boolean(cfg.paypalClientId && cfg.paypalClientSecret);

/** The second provider's REST API: OAuth client credentials, catalog plans, subscriptions, webhook verification. */
class PayPalClient {
  private token: { value: string; expires: number } | null = null;

  constructor(private readonly cfg: PaymentsConfig) {
    if (!paypalConfigured(cfg)) throw notConfigured();
  }

  /** Every call goes through core's outbound guard (pinned address, no redirects, 1 MB answer, 30 s). */
  private async send(url: string, req: OutboundRequest): Promise<OutboundResponse> {
    try {
      return await guardedFetch(url, req, { allowInternal: this.cfg.allowInternal ?? false, maxRedirects: 0, maxBytes: 1024 * 1024, timeoutMs: 30_000 });
    } catch (err) {
      throw upstreamFailed(`payment provider unreachable (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expires > Date.now()) return this.token.value;
    const basic = Buffer.from(`${this.cfg.paypalClientId}:${this.cfg.paypalClientSecret}`).toString('base64');
    const res = await this.send(`${this.cfg.paypalApiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'grant_type=client_credentials',
    });
    if (!res.ok) throw upstreamFailed(`payment provider error: authentication failed (${res.status})`);
    const body = res.json() as { access_token: string; expires_in?: number };
    this.token = { value: body.access_token, expires: Date.now() + Math.max(0, (body.expires_in ?? 300) - 60) * 1000 };
    return body.access_token;
  }

  async call<T>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
    const token = await this.accessToken();
    const res = await this.send(`${this.cfg.paypalApiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', ...opts.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = res.text();
    if (res.status === 404) throw notFound(opts.missing ?? 'subscription not found');
    if (!res.ok) throw upstreamFailed(`payment provider error: ${res.status} ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }

  /** The provider's plan id for one of our plans, created in its catalog on first use. */
  async planId(db: AgentsDb, plan: Plan): Promise<string> {
    const known = await paypalPlanId(db, plan.id);
    if (known) return known;
    const product = await this.call<{ id: string }>('POST', '/v1/catalogs/products', { name: `Agent platform ${plan.name}`, type: 'SERVICE', category: 'SOFTWARE' });
    const created = await this.call<{ id: string }>('POST', '/v1/billing/plans', {
      product_id: product.id,
      name: plan.name,
      status: 'ACTIVE',
      billing_cycles: [
        { frequency: { interval_unit: 'MONTH', interval_count: 1 }, tenure_type: 'REGULAR', sequence: 1, total_cycles: 0, pricing_scheme: { fixed_price: { value: (plan.priceCents / 100).toFixed(2), currency_code: 'USD' } } },
      ],
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 1 },
    });
    await savePaypalPlan(db, plan.id, product.id, created.id);
    return created.id;
  }

  createSubscription(planId: string, ws: string, returnUrl: string, cancelUrl: string): Promise<PayPalSubscription> {
    return this.call('POST', '/v1/billing/subscriptions', {
      plan_id: planId,
      custom_id: ws,
      application_context: { user_action: 'SUBSCRIBE_NOW', return_url: returnUrl, cancel_url: cancelUrl },
    });
  }

  getSubscription(id: string): Promise<PayPalSubscription> {
    return this.call('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}`);
  }

  async cancelSubscription(id: string, reason: string): Promise<void> {
    await this.call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, { reason });
  }

  /** An order for one credit bundle; the buyer approves it at the provider's `approve` link. */
  createOrder(bundle: { id: string; name: string; priceCents: number }, ws: string, returnUrl: string, cancelUrl: string): Promise<PayPalOrder> {
    return this.call('POST', '/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [{ reference_id: bundle.id, custom_id: ws, description: bundle.name, amount: { currency_code: 'USD', value: (bundle.priceCents / 100).toFixed(2) } }],
      application_context: { user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING', return_url: returnUrl, cancel_url: cancelUrl },
    });
  }

  getOrder(id: string): Promise<PayPalOrder> {
    return this.call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`, undefined, { missing: 'order not found' });
  }

  /** Captures an approved order; the request id makes a repeated capture answer the first one's result. */
  captureOrder(id: string): Promise<PayPalOrder> {
    return this.call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {}, { headers: { 'paypal-request-id': `capture-${id}` }, missing: 'order not found' });
  }

  /** Asks the provider whether a webhook delivery is genuine (its verify-webhook-signature API). */
  async verifyWebhook(headers: Record<string, string | undefined>, event: unknown): Promise<boolean> {
    const need = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'];
    if (!this.cfg.paypalWebhookId || need.some((h) => !headers[h])) return false;
    const r = await this.call<{ verification_status: string }>('POST', '/v1/notifications/verify-webhook-signature', {
      auth_algo: headers['paypal-auth-algo'],
      cert_url: headers['paypal-cert-url'],
      transmission_id: headers['paypal-transmission-id'],
      transmission_sig: headers['paypal-transmission-sig'],
      transmission_time: headers['paypal-transmission-time'],
      webhook_id: this.cfg.paypalWebhookId,
      webhook_event: event,
    });
    return r.verification_status === 'SUCCESS';
  }
}

const clients = new WeakMap<PaymentsConfig, PayPalClient>();
export function paypalClient(cfg: PaymentsConfig): PayPalClient {
  let c = clients.get(cfg);
  if (!c) {
    c = new PayPalClient(cfg);
    clients.set(cfg, c);
  }
  return c;
}
