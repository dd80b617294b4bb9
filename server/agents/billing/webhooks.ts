import type Stripe from 'stripe';
import type { Request } from 'express';
import { DomainError, badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import type { AgentsDb } from '../schema';
import { countSales, forgetDelivery } from './payments.repository';
import { rawBody } from '../http';
import { firstDelivery, markCancelled, paymentByExternal, recordPayment, renewSubscription, workspaceBySubscription } from './billing.service';
import { applySession, confirmPayPal } from './flows';
import { paypalClient, paypalConfigured } from './paypal';
import { confirmPayPalOrder } from './paypal-orders';
import { notConfigured, verifyStripeEvent } from './stripe';

const header = (req: Request, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

function invoiceSubscription(inv: Stripe.Invoice): string | null {
  const legacy = (inv as unknown as { subscription?: string | { id: string } | null }).subscription;
  if (typeof legacy === 'string') return legacy;
  if (legacy && typeof legacy === 'object') return legacy.id;
  const sub = inv.parent?.subscription_details?.subscription;
  return typeof sub === 'string' ? sub : (sub?.id ?? null);
}

/**
 * The first provider's signed notifications: paid checkouts, renewals, ended subscriptions. The delivery
 * record (insert-or-ignore on the event id) and everything the event changes are one transaction: a replay
 * racing the first delivery waits for it and is then ignored; a failed handling records nothing.
 */
export async function handleStripeWebhook(ctx: AgentsContext, req: Request) {
  const event = verifyStripeEvent(ctx.config.payments, rawBody(req), header(req, 'stripe-signature'));
  return ctx.db.transaction().execute(async (tx) => {
    if (!(await firstDelivery(tx, 'stripe', event.id, event.type))) return { received: true, duplicate: true };
    await applyStripeEvent(ctx, tx, event);
    return { received: true };
  });
}

async function applyStripeEvent(ctx: AgentsContext, tx: AgentsDb, event: Stripe.Event) {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      if ((await paymentByExternal(ctx, 'stripe', session.id, tx)) && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')) await applySession(ctx, null, session, tx);
      break;
    }
    case 'invoice.paid': {
      const inv = event.data.object;
      const sub = invoiceSubscription(inv);
      // The first invoice is the checkout itself (credited on confirmation); later ones are renewals.
      if (sub && inv.billing_reason !== 'subscription_create' && inv.id) {
        const ws = await workspaceBySubscription(ctx, 'stripe', sub, tx);
        if (ws && !(await paymentByExternal(ctx, 'stripe', inv.id, tx))) {
          await recordPayment(ctx, { workspace_id: ws, provider: 'stripe', external_id: inv.id, kind: 'renewal', bundle: null, plan: null, credits: 0, amount_cents: inv.amount_paid, status: 'paid' }, tx);
        }
        await renewSubscription(ctx, 'stripe', sub, `stripe:${inv.id}`, inv.amount_paid, inv.period_end ? inv.period_end * 1000 : null, tx);
      }
      break;
    }
    case 'customer.subscription.deleted': {
      const ws = await workspaceBySubscription(ctx, 'stripe', event.data.object.id, tx);
      if (ws) await markCancelled(ctx, ws, tx);
      break;
    }
    default:
      break;
  }
}

interface PayPalEvent {
  id?: string;
  event_type?: string;
  resource?: {
    id?: string;
    billing_agreement_id?: string;
    custom_id?: string;
    amount?: { total?: string; currency?: string };
    supplementary_data?: { related_ids?: { order_id?: string } };
  };
}

/** A bundle order the notice names is captured and credited once; one not payable yet waits for its capture notice. */
async function settleOrder(ctx: AgentsContext, orderId: string | undefined) {
  const p = orderId ? await paymentByExternal(ctx, 'paypal', orderId) : undefined;
  if (!p || p.kind !== 'bundle' || !orderId) return;
  try {
    await confirmPayPalOrder(ctx, null, orderId);
  } catch (err) {
    if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
  }
}

/** The second provider's notifications, each verified by its verify-webhook-signature API. */
export async function handlePayPalWebhook(ctx: AgentsContext, req: Request) {
  if (!paypalConfigured(ctx.config.payments) || !ctx.config.payments.paypalWebhookId) throw notConfigured();
  const event = req.body as PayPalEvent;
  if (!event || typeof event !== 'object' || !event.id || !event.event_type) throw badRequest('invalid event');
  const headers: Record<string, string | undefined> = {};
  for (const h of ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time']) headers[h] = header(req, h);
  if (!(await paypalClient(ctx.config.payments).verifyWebhook(headers, event))) throw badRequest('invalid signature');
  if (!(await firstDelivery(ctx.db, 'paypal', event.id, event.event_type))) return { received: true, duplicate: true };
  try {
    await applyPayPalEvent(ctx, event);
  } catch (err) {
    // Not handled: forget the delivery so the provider's retry is handled again.
    await forgetDelivery(ctx.db, 'paypal', event.id);
    throw err;
  }
  return { received: true };
}

/** What one verified notice of the second provider changes. */
async function applyPayPalEvent(ctx: AgentsContext, event: PayPalEvent) {
  const r = event.resource ?? {};
  switch (event.event_type) {
    case 'BILLING.SUBSCRIPTION.ACTIVATED':
      if (r.id && (await paymentByExternal(ctx, 'paypal', r.id))) await confirmPayPal(ctx, null, r.id);
      break;
    case 'CHECKOUT.ORDER.APPROVED':
    case 'CHECKOUT.ORDER.COMPLETED':
      await settleOrder(ctx, r.id);
      break;
    case 'PAYMENT.CAPTURE.COMPLETED':
      await settleOrder(ctx, r.supplementary_data?.related_ids?.order_id);
      break;
    case 'PAYMENT.SALE.COMPLETED': {
      const sub = r.billing_agreement_id;
      const ws = sub ? await workspaceBySubscription(ctx, 'paypal', sub) : null;
      if (!sub || !ws || !r.id || (r.amount?.currency && r.amount.currency !== 'USD')) break;
      const cents = Math.round(Number(r.amount?.total ?? 0) * 100);
      if (await paymentByExternal(ctx, 'paypal', r.id)) break;
      // Sales of one subscription are numbered: the first is the period the confirmation already credited.
      const n = (await countSales(ctx.db, sub)) + 1;
      await recordPayment(ctx, { workspace_id: ws, provider: 'paypal', external_id: r.id, kind: 'sale', bundle: null, plan: sub, credits: 0, amount_cents: cents, status: 'paid' });
      await renewSubscription(ctx, 'paypal', sub, `paypal:${sub}:period:${n}`, cents, null);
      break;
    }
    case 'BILLING.SUBSCRIPTION.CANCELLED':
    case 'BILLING.SUBSCRIPTION.SUSPENDED':
    case 'BILLING.SUBSCRIPTION.EXPIRED': {
      const ws = r.id ? await workspaceBySubscription(ctx, 'paypal', r.id) : null;
      if (ws) await markCancelled(ctx, ws);
      break;
    }
    default:
      break;
  }
}
