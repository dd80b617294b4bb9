import { conflict } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import type { AgentsDb } from '../schema';
import { recordCommission } from '../affiliate/commission';
import { bundleById, bundleForSale, planById, PLANS, TRIAL_DAYS, TRIAL_PLAN, type Plan } from './catalog';
import { balanceOf, inTransaction, ledgerEntries, postLedger, presentEntry } from './ledger';
import { insertPayment, markPaid, paymentByExternal as findPayment, recordDelivery, type PaymentRow } from './payments.repository';
import {
  ensureSubscription,
  expireTrial,
  setWorkspaceFlags,
  startTrial,
  subscriptionByExternal,
  updateSubscription,
  workspaceFlags,
  type SubscriptionRow,
} from './subscriptions.repository';

export type { PaymentRow, SubscriptionRow };

export interface AutoRecharge {
  enabled: boolean;
  threshold: number;
  bundle: string | null;
}

const DAY = 86_400_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The workspace's subscription row (created on first use); a trial past its end reads as expired. */
export async function subscriptionRow(ctx: AgentsContext, ws: string, db: AgentsDb = ctx.db): Promise<SubscriptionRow> {
  const row = await ensureSubscription(db, ws);
  if (row.status === 'trialing' && row.trial_ends_at !== null && row.trial_ends_at <= Date.now()) {
    await inTransaction(db, async (tx) => {
      if (await expireTrial(tx, ws, Date.now())) await setWorkspaceFlags(tx, ws, { tier: 'free' });
    });
    return ensureSubscription(db, ws);
  }
  return row;
}

/** The tier the workspace's subscription pays for: its plan's while active or in trial, else free. */
export async function paidTier(ctx: AgentsContext, ws: string): Promise<{ tier: string; status: string }> {
  const s = await subscriptionRow(ctx, ws);
  const paying = s.status === 'active' || s.status === 'trialing';
  return { tier: (paying && s.plan ? planById(s.plan)?.tier : null) ?? 'free', status: s.status };
}

export const autoRechargeOf = (row: SubscriptionRow): AutoRecharge => JSON.parse(row.auto_recharge) as AutoRecharge;

export async function subscriptionView(ctx: AgentsContext, ws: string) {
  const s = await subscriptionRow(ctx, ws);
  const w = await workspaceFlags(ctx.db, ws);
  if (!w) throw new Error(`no workspace ${ws}`);
  const pm = s.payment_method ? (JSON.parse(s.payment_method) as Record<string, unknown>) : null;
  return {
    status: s.status,
    plan: s.plan,
    provider: s.provider,
    tier: w.tier,
    paused: w.paused === 1,
    trial: { used: s.trial_used === 1, endsAt: iso(s.trial_ends_at), days: TRIAL_DAYS },
    currentPeriodEnd: iso(s.current_period_end),
    cancelledAt: iso(s.cancelled_at),
    paymentMethod: pm,
    autoRecharge: autoRechargeOf(s),
  };
}

export async function walletView(ctx: AgentsContext, ws: string) {
  const s = await subscriptionRow(ctx, ws);
  return { balance: await balanceOf(ctx.db, ws), currency: 'credits', creditCost: 1, autoRecharge: autoRechargeOf(s), entries: (await ledgerEntries(ctx.db, ws, 50)).map(presentEntry) };
}

export function plansView() {
  return PLANS.map((p) => ({ id: p.id, name: p.name, tier: p.tier, price: p.priceCents / 100, priceCents: p.priceCents, interval: 'month', monthlyCredits: p.monthlyCredits }));
}

export async function recordPayment(ctx: AgentsContext, p: Omit<PaymentRow, 'id' | 'status' | 'currency'> & { status?: string }, db: AgentsDb = ctx.db): Promise<string> {
  const id = newId('pmt');
  await insertPayment(db, { id, workspace_id: p.workspace_id, provider: p.provider, external_id: p.external_id, kind: p.kind, bundle: p.bundle, plan: p.plan, credits: p.credits, amount_cents: p.amount_cents, status: p.status ?? 'open', created_at: Date.now() });
  return id;
}

export function paymentByExternal(ctx: AgentsContext, provider: string, externalId: string, db: AgentsDb = ctx.db): Promise<PaymentRow | undefined> {
  return findPayment(db, provider, externalId);
}

/** Credits and commission for one paid fee; `ref` makes a repeated confirmation grant nothing. */
async function grant(tx: AgentsDb, ws: string, credits: number, reason: 'purchase' | 'subscription' | 'renewal' | 'recharge', ref: string, feeCents: number, note: string) {
  const entry = await postLedger(tx, ws, credits, reason, { ref, note });
  if (entry && !entry.duplicate) await recordCommission(tx, ws, ref, feeCents);
  return { credited: entry?.duplicate ? 0 : credits, alreadyConfirmed: Boolean(entry?.duplicate) };
}

/** A paid one-off bundle: credits once, whatever confirms it first (the return page or the webhook). */
export async function fulfilBundle(ctx: AgentsContext, p: PaymentRow, reason: 'purchase' | 'recharge' = 'purchase', db: AgentsDb = ctx.db) {
  const note = (await bundleById(db, p.bundle ?? ''))?.name ?? `${p.credits} credits`;
  return inTransaction(db, async (tx) => {
    await markPaid(tx, p.provider, p.external_id, Date.now());
    return grant(tx, p.workspace_id, p.credits, reason, `${p.provider}:${p.external_id}`, p.amount_cents, note);
  });
}

/**
 * A subscription became active: plan tier, the bot resumes, the first month's credits once.
 * `periodRef` names the first paid period (confirm and webhook name the same one).
 */
export async function activateSubscription(ctx: AgentsContext, ws: string, plan: Plan, provider: string, externalId: string, customerId: string | null, periodEnd: number | null, db: AgentsDb = ctx.db) {
  return inTransaction(db, async (tx) => {
    const s = await subscriptionRow(ctx, ws, tx);
    await updateSubscription(tx, ws, {
      status: 'active', plan: plan.id, provider, external_id: externalId, customer_id: customerId ?? s.customer_id,
      current_period_end: periodEnd ?? Date.now() + 30 * DAY, cancelled_at: null,
    });
    await setWorkspaceFlags(tx, ws, { tier: plan.tier, paused: 0 });
    await markPaid(tx, provider, externalId, Date.now());
    return grant(tx, ws, plan.monthlyCredits, 'subscription', `${provider}:${externalId}:period:1`, plan.priceCents, `${plan.name} plan`);
  });
}

/** A later paid period of an active subscription (renewal invoice or sale). */
export async function renewSubscription(ctx: AgentsContext, provider: string, externalId: string, ref: string, feeCents: number, periodEnd: number | null, db: AgentsDb = ctx.db) {
  const s = await subscriptionByExternal(db, provider, externalId);
  const plan = s?.plan ? planById(s.plan) : null;
  if (!s || !plan) return null;
  return inTransaction(db, async (tx) => {
    if (periodEnd) await updateSubscription(tx, s.workspace_id, { current_period_end: periodEnd });
    return grant(tx, s.workspace_id, plan.monthlyCredits, 'renewal', ref, feeCents, `${plan.name} plan renewal`);
  });
}

/** Subscription ended (cancel route or the provider's notice): the bot is paused. */
export async function markCancelled(ctx: AgentsContext, ws: string, db: AgentsDb = ctx.db): Promise<void> {
  await inTransaction(db, async (tx) => {
    await updateSubscription(tx, ws, { status: 'cancelled', cancelled_at: Date.now() });
    await setWorkspaceFlags(tx, ws, { paused: 1 });
  });
}

export async function workspaceBySubscription(ctx: AgentsContext, provider: string, externalId: string, db: AgentsDb = ctx.db): Promise<string | null> {
  return (await subscriptionByExternal(db, provider, externalId))?.workspace_id ?? null;
}

/** A payment method on file: saved, and the first one starts the free trial when there is no subscription. */
export async function savePaymentMethod(ctx: AgentsContext, ws: string, customerId: string, method: Record<string, unknown>): Promise<void> {
  await subscriptionRow(ctx, ws);
  await ctx.db.transaction().execute(async (tx) => {
    await updateSubscription(tx, ws, { customer_id: customerId, payment_method: JSON.stringify(method) });
    if (await startTrial(tx, ws, TRIAL_PLAN, Date.now() + TRIAL_DAYS * DAY)) await setWorkspaceFlags(tx, ws, { tier: planById(TRIAL_PLAN)?.tier ?? 'starter', paused: 0 });
  });
}

export async function setAutoRecharge(ctx: AgentsContext, ws: string, a: AutoRecharge): Promise<AutoRecharge> {
  const s = await subscriptionRow(ctx, ws);
  if (a.enabled) {
    await bundleForSale(ctx, a.bundle ?? '');
    if (!s.customer_id || !s.payment_method) throw conflict('add a payment method first');
  }
  await updateSubscription(ctx.db, ws, { auto_recharge: JSON.stringify(a) });
  return a;
}

/** A provider webhook event is handled once; a replay is acknowledged and ignored (insert-or-ignore on its id). */
export function firstDelivery(db: AgentsDb, provider: string, eventId: string, type: string): Promise<boolean> {
  return recordDelivery(db, provider, eventId, type);
}
