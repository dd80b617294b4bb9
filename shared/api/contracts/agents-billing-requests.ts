/** Request contracts of the agent platform's billing routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';

export const provider = z.enum(['stripe', 'paypal'], 'provider must be stripe or paypal').default('stripe');

export const id = (what: string) => z.string().trim().min(1, `${what} is required`).max(255);

/** Request schemas of billing/billing.routes.ts, by route. */
export const billingRequests = {
  'POST /api/billing/checkout': { body: z.object({ bundle: z.string().max(64).optional(), provider }) },
  'POST /api/billing/checkout/confirm': { body: z.object({ sessionId: id('sessionId').optional(), orderId: id('orderId').optional() }) },
  'POST /api/billing/subscribe': { body: z.object({ plan: id('plan'), provider }) },
  'POST /api/billing/paypal/confirm': { body: z.object({ subscriptionId: id('subscriptionId') }) },
  'POST /api/billing/payment-method': { body: z.object({ paymentMethodId: id('paymentMethodId') }) },
  'POST /api/billing/auto-recharge': { body: z.object({
        enabled: z.boolean(),
        threshold: z.number().int().min(0).max(1_000_000).default(100),
        bundle: z.string().max(64).nullable().default(null),
      }) },
};
