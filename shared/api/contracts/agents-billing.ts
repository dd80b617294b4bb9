/** Response contracts of the agent platform's billing routes (docs/spec/agents-api.md). */
import { z } from 'zod';

/** Automatic top-up: when the balance falls under threshold, buy bundle. */
const AutoRecharge = z.looseObject({ enabled: z.boolean(), threshold: z.number(), bundle: z.string().nullable() });

export const EntryRecord = z.looseObject({
  id: z.number(),
  delta: z.number(),
  balance: z.number(),
  reason: z.string(),
  note: z.string(),
  created_at: z.string(),
});

export const PlanRecord = z.looseObject({
  id: z.string(),
  name: z.string(),
  tier: z.string(),
  price: z.number(),
  priceCents: z.number(),
  interval: z.string(),
  monthlyCredits: z.number(),
});

export const SubscriptionRecord = z.looseObject({
  status: z.string(),
  plan: z.string().nullable(),
  provider: z.string().nullable(),
  tier: z.string(),
  paused: z.boolean(),
  trial: z.looseObject({ used: z.boolean(), endsAt: z.string().nullable(), days: z.number() }),
  currentPeriodEnd: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  paymentMethod: z.looseObject({ provider: z.string(), id: z.string(), brand: z.string(), last4: z.string() }).nullable(),
  autoRecharge: AutoRecharge,
});

/** The credit wallet: balance, top-up settings and the newest ledger entries. */
const Wallet = z.looseObject({
  balance: z.number(),
  currency: z.string(),
  creditCost: z.number(),
  autoRecharge: AutoRecharge,
  entries: z.array(EntryRecord),
});
/** A confirmed checkout (card or PayPal): credits added (0 when it was confirmed before), the wallet and subscription. */
const PaymentConfirmed = z.looseObject({
  credited: z.number(),
  alreadyConfirmed: z.boolean(),
  wallet: Wallet,
  subscription: SubscriptionRecord,
});
/** A payment provider's event, taken (duplicate when it was seen before). */
const WebhookReceived = z.looseObject({ received: z.boolean(), duplicate: z.boolean().optional() });

/** Success bodies of billing/billing.routes.ts, by route. */
export const billingResponses = {
  'GET /api/billing/pricing': z.looseObject({
    currency: z.string(),
    creditCost: z.number(),
    bundles: z.array(
      z.looseObject({ id: z.string(), name: z.string(), credits: z.number(), price: z.number(), priceCents: z.number() }),
    ),
    plans: z.array(PlanRecord),
    trial: z.looseObject({ plan: z.string(), days: z.number() }),
  }),
  'GET /api/billing/subscription': z.looseObject({
    subscription: SubscriptionRecord,
    plans: z.array(PlanRecord),
    providers: z.looseObject({ stripe: z.boolean(), paypal: z.boolean() }),
  }),
  'GET /api/billing/wallet': Wallet,
  'POST /api/billing/auto-recharge': z.looseObject({
    autoRecharge: AutoRecharge,
  }),
  'POST /api/billing/cancel': z.looseObject({ subscription: SubscriptionRecord }),
  'POST /api/billing/checkout': z.looseObject({
    provider: z.string(),
    sessionId: z.string().optional(),
    url: z.string(),
    bundle: z.string(),
    orderId: z.string().optional(),
  }),
  'POST /api/billing/checkout/confirm': PaymentConfirmed,
  'POST /api/billing/payment-method': z.looseObject({ subscription: SubscriptionRecord }),
  'POST /api/billing/paypal/confirm': PaymentConfirmed,
  'POST /api/billing/paypal/webhook': WebhookReceived,
  'POST /api/billing/subscribe': z.looseObject({
    provider: z.string(),
    sessionId: z.string().optional(),
    url: z.string(),
    plan: z.string(),
    subscriptionId: z.string().optional(),
  }),
  'POST /api/billing/webhook': WebhookReceived,
};
