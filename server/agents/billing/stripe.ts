import Stripe from 'stripe';
import { pinnedFetch } from '../../core/security/pinned-fetch';
import { DomainError, badRequest, unavailable, upstreamFailed } from '../../core/errors';
import type { PaymentsConfig } from '../config';

export const notConfigured = () => unavailable('payments not configured');

const clients = new WeakMap<PaymentsConfig, Stripe>();

/** The official SDK client for the configured key; STRIPE_API_URL points it at another host (a local fake in tests). */
export function stripeClient(cfg: PaymentsConfig): Stripe {
  if (!cfg.stripeSecretKey) throw notConfigured();
  const cached = clients.get(cfg);
  if (cached) return cached;
  // The SDK's HTTP client is the outbound guard (pinned, no redirects, 1 MB answers): STRIPE_API_URL on an
  // internal address is refused before anything is sent; `allowInternal` is the tests' hook for a local fake.
  const httpClient = Stripe.createFetchHttpClient(pinnedFetch({ allowInternal: cfg.allowInternal ?? false, maxRedirects: 0, maxBytes: 1024 * 1024, timeoutMs: 35_000 }));
  const opts: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 30_000, telemetry: false, httpClient };
  if (cfg.stripeApiUrl) {
    const u = new URL(cfg.stripeApiUrl);
    opts.host = u.hostname;
    opts.protocol = u.protocol === 'http:' ? 'http' : 'https';
    opts.port = u.port || (opts.protocol === 'http' ? 80 : 443);
  }
  const client = new Stripe(cfg.stripeSecretKey, opts);
  clients.set(cfg, client);
  return client;
}

/** Verifies the processor's signature header over the raw body (5-minute tolerance) and returns the event. */
export function verifyStripeEvent(cfg: PaymentsConfig, raw: Buffer, header: string | undefined): Stripe.Event {
  if (!cfg.stripeSecretKey || !cfg.stripeWebhookSecret) throw notConfigured();
  if (!header) throw badRequest('invalid signature');
  try {
    return stripeClient(cfg).webhooks.constructEvent(raw, header, cfg.stripeWebhookSecret, 300);
  } catch {
    throw badRequest('invalid signature');
  }
}

/** A provider error becomes 502 with the provider's message (no secrets in it). */
export function providerFailure(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return upstreamFailed(`payment provider error: ${message.slice(0, 200)}`);
}
