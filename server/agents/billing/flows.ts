import type Stripe from 'stripe';
import { badRequest, conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import type { AgentsDb } from '../schema';
import { findSubscription } from './subscriptions.repository';
import { markPaid } from './payments.repository';
import { bundleById, bundleForSale, planById, type Plan } from './catalog';
import { paypalClient } from './paypal';
import { providerFailure, stripeClient } from './stripe';
import {
  activateSubscription,
  autoRechargeOf,
  fulfilBundle,
  markCancelled,
  paymentByExternal,
  recordPayment,
  savePaymentMethod,
  subscriptionRow,
} from './billing.service';

export async function provider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw providerFailure(err);
  }
}

export const returnUrls = (ctx: AgentsContext, what: string) => ({
  success_url: `${ctx.config.appUrl}/billing?${what}=success&session_id={CHECKOUT_SESSION_ID}`,
  cancel_url: `${ctx.config.appUrl}/billing?${what}=cancelled`,
});

/** A hosted checkout session of the first provider for one credit bundle. */
export async function createBundleCheckout(ctx: AgentsContext, ws: string, bundleId: string) {
  const bundle = await bundleForSale(ctx, bundleId);
  const stripe = stripeClient(ctx.config.payments);
  const s = await subscriptionRow(ctx, ws);
  const session = await provider(() =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: ws,
      ...(s.customer_id ? { customer: s.customer_id } : {}),
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: bundle.priceCents, product_data: { name: bundle.name } } }],
      metadata: { workspace_id: ws, bundle: bundle.id, credits: String(bundle.credits) },
      ...returnUrls(ctx, 'checkout'),
    }),
  );
  await recordPayment(ctx, { workspace_id: ws, provider: 'stripe', external_id: session.id, kind: 'bundle', bundle: bundle.id, plan: null, credits: bundle.credits, amount_cents: bundle.priceCents });
  return { provider: 'stripe', sessionId: session.id, url: session.url, bundle: bundle.id };
}

/** Applies a completed checkout session (bundle or subscription) of this workspace; safe to repeat. */
export async function applySession(ctx: AgentsContext, ws: string | null, session: Stripe.Checkout.Session, db: AgentsDb = ctx.db) {
  const p = await paymentByExternal(ctx, 'stripe', session.id, db);
  if (!p || (ws !== null && p.workspace_id !== ws)) throw notFound('checkout session not found');
  if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') throw conflict('payment not completed');
  if (p.kind === 'bundle') return fulfilBundle(ctx, p, 'purchase', db);
  const plan = planById(p.plan ?? '');
  const subId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  if (!plan || !subId) throw conflict('payment not completed');
  const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
  await markPaid(db, p.provider, p.external_id, Date.now());
  return activateSubscription(ctx, p.workspace_id, plan, 'stripe', subId, customer, null, db);
}

export async function confirmCheckout(ctx: AgentsContext, ws: string, sessionId: string) {
  const stripe = stripeClient(ctx.config.payments);
  if (!(await paymentByExternal(ctx, 'stripe', sessionId))) throw notFound('checkout session not found');
  const session = await provider(() => stripe.checkout.sessions.retrieve(sessionId));
  return applySession(ctx, ws, session);
}

async function assertCanSubscribe(ctx: AgentsContext, ws: string, plan: Plan) {
  const s = await subscriptionRow(ctx, ws);
  if (s.status === 'active' && s.plan === plan.id) throw conflict('already subscribed to this plan');
  return s;
}

/** Starts a monthly subscription: a hosted checkout of the first provider, or an approval link of the second. */
export async function subscribe(ctx: AgentsContext, ws: string, planId: string, via: 'stripe' | 'paypal') {
  const plan = planById(planId);
  if (!plan) throw badRequest('plan: unknown plan');
  const s = await assertCanSubscribe(ctx, ws, plan);
  if (via === 'paypal') {
    const pp = paypalClient(ctx.config.payments);
    const sub = await provider(async () => {
      const pid = await pp.planId(ctx.db, plan);
      return pp.createSubscription(pid, ws, `${ctx.config.appUrl}/billing?paypal=success`, `${ctx.config.appUrl}/billing?paypal=cancelled`);
    });
    await recordPayment(ctx, { workspace_id: ws, provider: 'paypal', external_id: sub.id, kind: 'subscription', bundle: null, plan: plan.id, credits: plan.monthlyCredits, amount_cents: plan.priceCents });
    return { provider: 'paypal', subscriptionId: sub.id, url: sub.links?.find((l) => l.rel === 'approve')?.href ?? null, plan: plan.id };
  }
  const stripe = stripeClient(ctx.config.payments);
  const session = await provider(() =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: ws,
      ...(s.customer_id ? { customer: s.customer_id } : {}),
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: plan.priceCents, recurring: { interval: 'month' }, product_data: { name: `${plan.name} plan` } } }],
      metadata: { workspace_id: ws, plan: plan.id },
      subscription_data: { metadata: { workspace_id: ws, plan: plan.id } },
      ...returnUrls(ctx, 'subscribe'),
    }),
  );
  await recordPayment(ctx, { workspace_id: ws, provider: 'stripe', external_id: session.id, kind: 'subscription', bundle: null, plan: plan.id, credits: plan.monthlyCredits, amount_cents: plan.priceCents });
  return { provider: 'stripe', sessionId: session.id, url: session.url, plan: plan.id };
}

/** The second provider's subscription is approved: it becomes the workspace's active subscription (once). */
export async function confirmPayPal(ctx: AgentsContext, ws: string | null, subscriptionId: string) {
  const pp = paypalClient(ctx.config.payments);
  const p = await paymentByExternal(ctx, 'paypal', subscriptionId);
  if (!p || (ws !== null && p.workspace_id !== ws)) throw notFound('subscription not found');
  const sub = await provider(() => pp.getSubscription(subscriptionId));
  if (sub.custom_id && sub.custom_id !== p.workspace_id) throw notFound('subscription not found');
  if (sub.status !== 'ACTIVE') throw conflict('subscription not approved yet');
  const plan = planById(p.plan ?? '');
  if (!plan) throw conflict('subscription not approved yet');
  const next = sub.billing_info?.next_billing_time ? Date.parse(sub.billing_info.next_billing_time) : null;
  return activateSubscription(ctx, p.workspace_id, plan, 'paypal', sub.id, null, Number.isFinite(next) ? next : null);
}

/** Registers a card (a payment method id from the provider's client library) on a customer; the first one starts the trial. */
export async function registerPaymentMethod(ctx: AgentsContext, ws: string, email: string, paymentMethodId: string) {
  const stripe = stripeClient(ctx.config.payments);
  const s = await subscriptionRow(ctx, ws);
  const customer = await provider(async () => {
    if (s.customer_id) {
      await stripe.paymentMethods.attach(paymentMethodId, { customer: s.customer_id });
      await stripe.customers.update(s.customer_id, { invoice_settings: { default_payment_method: paymentMethodId } });
      return s.customer_id;
    }
    const c = await stripe.customers.create({ email, payment_method: paymentMethodId, invoice_settings: { default_payment_method: paymentMethodId }, metadata: { workspace_id: ws } });
    return c.id;
  });
  const pm = await provider(() => stripe.paymentMethods.retrieve(paymentMethodId));
  await savePaymentMethod(ctx, ws, customer, { provider: 'stripe', id: pm.id, brand: pm.card?.brand ?? null, last4: pm.card?.last4 ?? null });
}

/** Cancels at the provider, then pauses the bot. */
export async function cancelSubscription(ctx: AgentsContext, ws: string) {
  const s = await subscriptionRow(ctx, ws);
  if (s.status !== 'active' && s.status !== 'trialing') throw conflict('no active subscription');
  if (s.status === 'active' && s.external_id) {
    if (s.provider === 'stripe') {
      const stripe = stripeClient(ctx.config.payments);
      await provider(() => stripe.subscriptions.cancel(s.external_id as string));
    } else if (s.provider === 'paypal') {
      const pp = paypalClient(ctx.config.payments);
      await provider(() => pp.cancelSubscription(s.external_id as string, 'Cancelled by the workspace owner'));
    }
  }
  await markCancelled(ctx, ws);
}

const recharging = new Set<string>();

/**
 * After a debit: when auto-recharge is on and the balance fell below its threshold, charges the
 * saved card off-session for the chosen bundle and credits it (one recharge at a time per workspace).
 */
export async function maybeAutoRecharge(ctx: AgentsContext, ws: string, balance: number): Promise<void> {
  if (!ctx.config.payments.stripeSecretKey || recharging.has(ws)) return;
  const s = await findSubscription(ctx.db, ws);
  if (!s || !s.customer_id || !s.payment_method) return;
  const a = autoRechargeOf(s);
  const bundle = a.enabled && a.bundle ? await bundleById(ctx.db, a.bundle) : null;
  if (!bundle || balance >= a.threshold || recharging.has(ws)) return;
  recharging.add(ws);
  const pmId = String((JSON.parse(s.payment_method) as { id?: string }).id ?? '');
  const work = (async () => {
    try {
      const intent = await stripeClient(ctx.config.payments).paymentIntents.create({
        amount: bundle.priceCents,
        currency: 'usd',
        customer: s.customer_id as string,
        payment_method: pmId,
        off_session: true,
        confirm: true,
        metadata: { workspace_id: ws, bundle: bundle.id, purpose: 'auto-recharge' },
      });
      if (intent.status !== 'succeeded') return;
      await recordPayment(ctx, { workspace_id: ws, provider: 'stripe', external_id: intent.id, kind: 'recharge', bundle: bundle.id, plan: null, credits: bundle.credits, amount_cents: bundle.priceCents });
      const p = await paymentByExternal(ctx, 'stripe', intent.id);
      if (p) await fulfilBundle(ctx, p, 'recharge');
    } catch (err) {
      ctx.log(`auto-recharge of ${ws} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      recharging.delete(ws);
    }
  })();
  ctx.background.add(work);
  void work.finally(() => ctx.background.delete(work));
}
