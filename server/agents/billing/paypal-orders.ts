import { conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { bundleForSale } from './catalog';
import { fulfilBundle, paymentByExternal, recordPayment } from './billing.service';
import { provider, returnUrls } from './flows';
import { paypalClient, type PayPalOrder } from './paypal';
import { providerFailure } from './stripe';

/** A one-off credit bundle through the second provider: an order the buyer approves at the provider's page. */
export async function createPayPalOrder(ctx: AgentsContext, ws: string, bundleId: string) {
  const bundle = await bundleForSale(ctx, bundleId);
  const pp = paypalClient(ctx.config.payments);
  const urls = returnUrls(ctx, 'checkout');
  const order = await provider(() => pp.createOrder(bundle, ws, `${ctx.config.appUrl}/billing?checkout=success&provider=paypal`, urls.cancel_url));
  await recordPayment(ctx, { workspace_id: ws, provider: 'paypal', external_id: order.id, kind: 'bundle', bundle: bundle.id, plan: null, credits: bundle.credits, amount_cents: bundle.priceCents });
  const approve = order.links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href ?? null;
  return { provider: 'paypal', orderId: order.id, url: approve, bundle: bundle.id };
}

const cents = (value: string | undefined) => Math.round(Number(value ?? 'NaN') * 100);

/**
 * Captures an approved order of this workspace (or any workspace: `ws` null, from a verified webhook)
 * and credits its bundle once, however often the return page and the webhook confirm it.
 */
export async function confirmPayPalOrder(ctx: AgentsContext, ws: string | null, orderId: string) {
  const pp = paypalClient(ctx.config.payments);
  const p = await paymentByExternal(ctx, 'paypal', orderId);
  if (!p || p.kind !== 'bundle' || (ws !== null && p.workspace_id !== ws)) throw notFound('order not found');
  if (p.status === 'paid') return fulfilBundle(ctx, p);
  let order: PayPalOrder = await provider(() => pp.getOrder(orderId));
  if (order.status === 'APPROVED') {
    try {
      order = await pp.captureOrder(orderId);
    } catch (err) {
      // A capture racing another one (already captured) reads the order again.
      const again = await provider(() => pp.getOrder(orderId));
      if (again.status !== 'COMPLETED') throw providerFailure(err);
      order = again;
    }
  }
  const unit = order.purchase_units?.[0];
  if (unit?.custom_id && unit.custom_id !== p.workspace_id) throw notFound('order not found');
  const capture = order.status === 'COMPLETED' ? unit?.payments?.captures?.find((c) => c.status === 'COMPLETED') : undefined;
  if (!capture) throw conflict('payment not completed');
  if (capture.amount?.currency_code !== 'USD' || cents(capture.amount.value) !== p.amount_cents) throw conflict('paid amount does not match the order');
  return fulfilBundle(ctx, p);
}
