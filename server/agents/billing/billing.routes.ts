import { z } from 'zod';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { requireEditor } from '../roles';
import { BUNDLES, pricing } from './catalog';
import { plansView, setAutoRecharge, subscriptionView, walletView } from './billing.service';
import { cancelSubscription, confirmCheckout, confirmPayPal, createBundleCheckout, registerPaymentMethod, subscribe } from './flows';
import { paypalConfigured } from './paypal';
import { handlePayPalWebhook, handleStripeWebhook } from './webhooks';

const editor = (_req: unknown, caller: Parameters<typeof requireEditor>[0]) => requireEditor(caller);
const id = (what: string) => z.string().trim().min(1, `${what} is required`).max(255);

export function billingRoutes(ctx: AgentsContext): AgentRoute[] {
  const configured = () => ({ stripe: Boolean(ctx.config.payments.stripeSecretKey), paypal: paypalConfigured(ctx.config.payments) });
  const email = (userId: string) => (ctx.db.prepare('SELECT email FROM users WHERE id = ?').get(userId) as { email: string }).email;
  return [
    route({ method: 'get', path: '/api/billing/pricing', auth: 'public', handler: () => pricing() }),
    route({ method: 'get', path: '/api/billing/wallet', auth: 'bearer', handler: ({ caller }) => walletView(ctx, caller.ws) }),
    route({
      method: 'get',
      path: '/api/billing/subscription',
      auth: 'bearer',
      handler: ({ caller }) => ({ subscription: subscriptionView(ctx, caller.ws), plans: plansView(), providers: configured() }),
    }),
    route({
      method: 'post',
      path: '/api/billing/checkout',
      auth: 'bearer',
      before: editor,
      body: z.object({ bundle: z.string().max(64).default(BUNDLES[0].id) }),
      handler: ({ caller, body }) => createBundleCheckout(ctx, caller.ws, body.bundle),
    }),
    route({
      method: 'post',
      path: '/api/billing/checkout/confirm',
      auth: 'bearer',
      before: editor,
      body: z.object({ sessionId: id('sessionId') }),
      handler: async ({ caller, body }) => {
        const r = await confirmCheckout(ctx, caller.ws, body.sessionId);
        return { ...r, wallet: walletView(ctx, caller.ws), subscription: subscriptionView(ctx, caller.ws) };
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/subscribe',
      auth: 'bearer',
      before: editor,
      body: z.object({ plan: id('plan'), provider: z.enum(['stripe', 'paypal'], 'provider must be stripe or paypal').default('stripe') }),
      handler: ({ caller, body }) => subscribe(ctx, caller.ws, body.plan, body.provider),
    }),
    route({
      method: 'post',
      path: '/api/billing/paypal/confirm',
      auth: 'bearer',
      before: editor,
      body: z.object({ subscriptionId: id('subscriptionId') }),
      handler: async ({ caller, body }) => {
        const r = await confirmPayPal(ctx, caller.ws, body.subscriptionId);
        return { ...r, wallet: walletView(ctx, caller.ws), subscription: subscriptionView(ctx, caller.ws) };
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/payment-method',
      auth: 'bearer',
      before: editor,
      body: z.object({ paymentMethodId: id('paymentMethodId') }),
      handler: async ({ caller, body }) => {
        await registerPaymentMethod(ctx, caller.ws, email(caller.userId), body.paymentMethodId);
        return { subscription: subscriptionView(ctx, caller.ws) };
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/auto-recharge',
      auth: 'bearer',
      before: editor,
      body: z.object({
        enabled: z.boolean(),
        threshold: z.number().int().min(0).max(1_000_000).default(100),
        bundle: z.string().max(64).nullable().default(null),
      }),
      handler: ({ caller, body }) => ({ autoRecharge: setAutoRecharge(ctx, caller.ws, body) }),
    }),
    route({
      method: 'post',
      path: '/api/billing/cancel',
      auth: 'bearer',
      before: editor,
      handler: async ({ caller }) => {
        await cancelSubscription(ctx, caller.ws);
        return { subscription: subscriptionView(ctx, caller.ws) };
      },
    }),
    route({ method: 'post', path: '/api/billing/webhook', auth: 'public', handler: ({ req }) => handleStripeWebhook(ctx, req) }),
    route({ method: 'post', path: '/api/billing/paypal/webhook', auth: 'public', handler: ({ req }) => handlePayPalWebhook(ctx, req) }),
  ];
}
