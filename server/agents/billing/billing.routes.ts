import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { bundlesOnSale, pricing } from './catalog';
import { plansView, setAutoRecharge, subscriptionView, walletView } from './billing.service';
import { cancelSubscription, confirmCheckout, confirmPayPal, createBundleCheckout, registerPaymentMethod, subscribe } from './flows';
import { paypalConfigured } from './paypal';
import { userEmail } from './subscriptions.repository';
import { confirmPayPalOrder, createPayPalOrder } from './paypal-orders';
import { handlePayPalWebhook, handleStripeWebhook } from './webhooks';
import { billingResponses } from '../../../shared/api/contracts/agents-billing';
import { billingRequests, id, provider } from '../../../shared/api/contracts/agents-billing-requests';


export function billingRoutes(ctx: AgentsContext): AgentRoute[] {
  const configured = () => ({ stripe: Boolean(ctx.config.payments.stripeSecretKey), paypal: paypalConfigured(ctx.config.payments) });
  return [
    route({ method: 'get', path: '/api/billing/pricing', response: billingResponses['GET /api/billing/pricing'], auth: 'public', handler: () => pricing(ctx) }),
    route({ method: 'get', path: '/api/billing/wallet', response: billingResponses['GET /api/billing/wallet'], auth: 'bearer', handler: ({ caller }) => walletView(ctx, caller.ws) }),
    route({
      method: 'get',
      path: '/api/billing/subscription', response: billingResponses['GET /api/billing/subscription'],
      auth: 'bearer',
      handler: async ({ caller }) => ({ subscription: await subscriptionView(ctx, caller.ws), plans: plansView(), providers: configured() }),
    }),
    route({
      method: 'post',
      path: '/api/billing/checkout', response: billingResponses['POST /api/billing/checkout'],
      auth: 'owner',
      body: billingRequests['POST /api/billing/checkout'].body,
      handler: async ({ caller, body }) => {
        // No bundle named: the first one on sale.
        const bundle = body.bundle ?? (await bundlesOnSale(ctx.db))[0]?.id ?? '';
        return body.provider === 'paypal' ? createPayPalOrder(ctx, caller.ws, bundle) : createBundleCheckout(ctx, caller.ws, bundle);
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/checkout/confirm', response: billingResponses['POST /api/billing/checkout/confirm'],
      auth: 'owner',
      body: billingRequests['POST /api/billing/checkout/confirm'].body,
      handler: async ({ caller, body }) => {
        // A hosted checkout session of the first provider, or an order of the second.
        if (!body.sessionId && !body.orderId) throw badRequest('sessionId or orderId is required');
        const r = body.orderId ? await confirmPayPalOrder(ctx, caller.ws, body.orderId) : await confirmCheckout(ctx, caller.ws, body.sessionId ?? '');
        return { ...r, wallet: await walletView(ctx, caller.ws), subscription: await subscriptionView(ctx, caller.ws) };
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/subscribe', response: billingResponses['POST /api/billing/subscribe'],
      auth: 'owner',
      body: billingRequests['POST /api/billing/subscribe'].body,
      handler: ({ caller, body }) => subscribe(ctx, caller.ws, body.plan, body.provider),
    }),
    route({
      method: 'post',
      path: '/api/billing/paypal/confirm', response: billingResponses['POST /api/billing/paypal/confirm'],
      auth: 'owner',
      body: billingRequests['POST /api/billing/paypal/confirm'].body,
      handler: async ({ caller, body }) => {
        const r = await confirmPayPal(ctx, caller.ws, body.subscriptionId);
        return { ...r, wallet: await walletView(ctx, caller.ws), subscription: await subscriptionView(ctx, caller.ws) };
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/payment-method', response: billingResponses['POST /api/billing/payment-method'],
      auth: 'owner',
      body: billingRequests['POST /api/billing/payment-method'].body,
      handler: async ({ caller, body }) => {
        await registerPaymentMethod(ctx, caller.ws, await userEmail(ctx.db, caller.userId), body.paymentMethodId);
        return { subscription: await subscriptionView(ctx, caller.ws) };
      },
    }),
    route({
      method: 'post',
      path: '/api/billing/auto-recharge', response: billingResponses['POST /api/billing/auto-recharge'],
      auth: 'owner',
      body: billingRequests['POST /api/billing/auto-recharge'].body,
      handler: async ({ caller, body }) => ({ autoRecharge: await setAutoRecharge(ctx, caller.ws, body) }),
    }),
    route({
      method: 'post',
      path: '/api/billing/cancel', response: billingResponses['POST /api/billing/cancel'],
      auth: 'owner',
      handler: async ({ caller }) => {
        await cancelSubscription(ctx, caller.ws);
        return { subscription: await subscriptionView(ctx, caller.ws) };
      },
    }),
    route({ method: 'post', path: '/api/billing/webhook', response: billingResponses['POST /api/billing/webhook'], auth: 'public', handler: ({ req }) => handleStripeWebhook(ctx, req) }),
    route({ method: 'post', path: '/api/billing/paypal/webhook', response: billingResponses['POST /api/billing/paypal/webhook'], auth: 'public', handler: ({ req }) => handlePayPalWebhook(ctx, req) }),
  ];
}
