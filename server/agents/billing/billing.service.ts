import { conflict } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { recordCommission } from '../affiliate/commission';
import { bundleById, bundleForSale, planById, PLANS, TRIAL_DAYS, TRIAL_PLAN, type Plan } from './catalog';
import { balanceOf, ledgerEntries, postLedger, presentEntry } from './ledger';

export interface SubscriptionRow {
  workspace_id: string;
  status: string;
  plan: string | null;
  provider: string | null;
  external_id: string | null;
  customer_id: string | null;
  payment_method: string | null;
  trial_used: number;
  trial_ends_at: number | null;
  current_period_end: number | null;
  cancelled_at: number | null;
  auto_recharge: string;
  updated_at: number;
}

export interface AutoRecharge {
  enabled: boolean;
  threshold: number;
  bundle: string | null;
}

export interface PaymentRow {
  id: string;
  workspace_id: string;
  provider: string;
  external_id: string;
  kind: string;
  bundle: string | null;
  plan: string | null;
  credits: number;
  amount_cents: number;
  currency: string;
  status: string;
}

const DAY = 86_400_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The workspace's subscription row (created on first use); a trial past its end reads as expired. */
export function subscriptionRow(ctx: AgentsContext, ws: string): SubscriptionRow {
  ctx.legacyDb.prepare('INSERT INTO subscriptions (workspace_id, updated_at) VALUES (?, ?) ON CONFLICT DO NOTHING').run(ws, Date.now());
  const row = ctx.legacyDb.prepare('SELECT * FROM subscriptions WHERE workspace_id = ?').get(ws) as SubscriptionRow;
  if (row.status === 'trialing' && row.trial_ends_at !== null && row.trial_ends_at <= Date.now()) {
    ctx.legacyDb.transaction(() => {
      ctx.legacyDb.prepare("UPDATE subscriptions SET status = 'expired', updated_at = ? WHERE workspace_id = ?").run(Date.now(), ws);
      ctx.legacyDb.prepare("UPDATE workspaces SET tier = 'free' WHERE id = ?").run(ws);
    })();
    return subscriptionRow(ctx, ws);
  }
  return row;
}

/** The tier the workspace's subscription pays for: its plan's while active or in trial, else free. */
export function paidTier(ctx: AgentsContext, ws: string): { tier: string; status: string } {
  const s = subscriptionRow(ctx, ws);
  const paying = s.status === 'active' || s.status === 'trialing';
  return { tier: (paying && s.plan ? planById(s.plan)?.tier : null) ?? 'free', status: s.status };
}

export const autoRechargeOf = (row: SubscriptionRow): AutoRecharge => JSON.parse(row.auto_recharge) as AutoRecharge;

export function subscriptionView(ctx: AgentsContext, ws: string) {
  const s = subscriptionRow(ctx, ws);
  const w = ctx.legacyDb.prepare('SELECT tier, paused FROM workspaces WHERE id = ?').get(ws) as { tier: string; paused: number };
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

export function walletView(ctx: AgentsContext, ws: string) {
  const s = subscriptionRow(ctx, ws);
  return { balance: balanceOf(ctx.legacyDb, ws), currency: 'credits', creditCost: 1, autoRecharge: autoRechargeOf(s), entries: ledgerEntries(ctx.legacyDb, ws, 50).map(presentEntry) };
}

export function plansView() {
  return PLANS.map((p) => ({ id: p.id, name: p.name, tier: p.tier, price: p.priceCents / 100, priceCents: p.priceCents, interval: 'month', monthlyCredits: p.monthlyCredits }));
}

export function recordPayment(ctx: AgentsContext, p: Omit<PaymentRow, 'id' | 'status' | 'currency'> & { status?: string }): string {
  const id = newId('pmt');
  ctx.legacyDb
    .prepare('INSERT INTO payments (id, workspace_id, provider, external_id, kind, bundle, plan, credits, amount_cents, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(id, p.workspace_id, p.provider, p.external_id, p.kind, p.bundle, p.plan, p.credits, p.amount_cents, p.status ?? 'open', Date.now());
  return id;
}

export function paymentByExternal(ctx: AgentsContext, provider: string, externalId: string): PaymentRow | undefined {
  return ctx.legacyDb.prepare('SELECT * FROM payments WHERE provider = ? AND external_id = ?').get(provider, externalId) as PaymentRow | undefined;
}

/** Credits and commission for one paid fee; `ref` makes a repeated confirmation grant nothing. */
function grant(ctx: AgentsContext, ws: string, credits: number, reason: 'purchase' | 'subscription' | 'renewal' | 'recharge', ref: string, feeCents: number, note: string) {
  const entry = postLedger(ctx.legacyDb, ws, credits, reason, { ref, note });
  if (entry && !entry.duplicate) recordCommission(ctx.legacyDb, ws, ref, feeCents);
  return { credited: entry?.duplicate ? 0 : credits, alreadyConfirmed: Boolean(entry?.duplicate) };
}

/** A paid one-off bundle: credits once, whatever confirms it first (the return page or the webhook). */
export function fulfilBundle(ctx: AgentsContext, p: PaymentRow, reason: 'purchase' | 'recharge' = 'purchase') {
  return ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare("UPDATE payments SET status = 'paid', paid_at = COALESCE(paid_at, ?) WHERE id = ?").run(Date.now(), p.id);
    return grant(ctx, p.workspace_id, p.credits, reason, `${p.provider}:${p.external_id}`, p.amount_cents, bundleById(ctx.legacyDb, p.bundle ?? '')?.name ?? `${p.credits} credits`);
  })();
}

/**
 * A subscription became active: plan tier, the bot resumes, the first month's credits once.
 * `periodRef` names the first paid period (confirm and webhook name the same one).
 */
export function activateSubscription(ctx: AgentsContext, ws: string, plan: Plan, provider: string, externalId: string, customerId: string | null, periodEnd: number | null) {
  return ctx.legacyDb.transaction(() => {
    subscriptionRow(ctx, ws);
    ctx.legacyDb
      .prepare("UPDATE subscriptions SET status = 'active', plan = ?, provider = ?, external_id = ?, customer_id = COALESCE(?, customer_id), current_period_end = ?, cancelled_at = NULL, updated_at = ? WHERE workspace_id = ?")
      .run(plan.id, provider, externalId, customerId, periodEnd ?? Date.now() + 30 * DAY, Date.now(), ws);
    ctx.legacyDb.prepare('UPDATE workspaces SET tier = ?, paused = 0 WHERE id = ?').run(plan.tier, ws);
    ctx.legacyDb.prepare("UPDATE payments SET status = 'paid', paid_at = COALESCE(paid_at, ?) WHERE provider = ? AND external_id = ?").run(Date.now(), provider, externalId);
    return grant(ctx, ws, plan.monthlyCredits, 'subscription', `${provider}:${externalId}:period:1`, plan.priceCents, `${plan.name} plan`);
  })();
}

/** A later paid period of an active subscription (renewal invoice or sale). */
export function renewSubscription(ctx: AgentsContext, provider: string, externalId: string, ref: string, feeCents: number, periodEnd: number | null) {
  const s = ctx.legacyDb.prepare('SELECT * FROM subscriptions WHERE provider = ? AND external_id = ?').get(provider, externalId) as SubscriptionRow | undefined;
  const plan = s?.plan ? planById(s.plan) : null;
  if (!s || !plan) return null;
  return ctx.legacyDb.transaction(() => {
    if (periodEnd) ctx.legacyDb.prepare('UPDATE subscriptions SET current_period_end = ?, updated_at = ? WHERE workspace_id = ?').run(periodEnd, Date.now(), s.workspace_id);
    return grant(ctx, s.workspace_id, plan.monthlyCredits, 'renewal', ref, feeCents, `${plan.name} plan renewal`);
  })();
}

/** Subscription ended (cancel route or the provider's notice): the bot is paused. */
export function markCancelled(ctx: AgentsContext, ws: string): void {
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare("UPDATE subscriptions SET status = 'cancelled', cancelled_at = ?, updated_at = ? WHERE workspace_id = ?").run(Date.now(), Date.now(), ws);
    ctx.legacyDb.prepare('UPDATE workspaces SET paused = 1 WHERE id = ?').run(ws);
  })();
}

export function workspaceBySubscription(ctx: AgentsContext, provider: string, externalId: string): string | null {
  const r = ctx.legacyDb.prepare('SELECT workspace_id FROM subscriptions WHERE provider = ? AND external_id = ?').get(provider, externalId) as { workspace_id: string } | undefined;
  return r?.workspace_id ?? null;
}

/** A payment method on file: saved, and the first one starts the free trial when there is no subscription. */
export function savePaymentMethod(ctx: AgentsContext, ws: string, customerId: string, method: Record<string, unknown>): void {
  const s = subscriptionRow(ctx, ws);
  const now = Date.now();
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare("UPDATE subscriptions SET customer_id = ?, payment_method = ?, updated_at = ? WHERE workspace_id = ?").run(customerId, JSON.stringify(method), now, ws);
    if (!s.trial_used && (s.status === 'none' || s.status === 'expired')) {
      ctx.legacyDb
        .prepare("UPDATE subscriptions SET status = 'trialing', plan = ?, provider = 'stripe', trial_used = 1, trial_ends_at = ?, updated_at = ? WHERE workspace_id = ?")
        .run(TRIAL_PLAN, now + TRIAL_DAYS * DAY, now, ws);
      ctx.legacyDb.prepare('UPDATE workspaces SET tier = ?, paused = 0 WHERE id = ?').run(planById(TRIAL_PLAN)?.tier ?? 'starter', ws);
    }
  })();
}

export function setAutoRecharge(ctx: AgentsContext, ws: string, a: AutoRecharge): AutoRecharge {
  const s = subscriptionRow(ctx, ws);
  if (a.enabled) {
    bundleForSale(ctx.legacyDb, a.bundle ?? '');
    if (!s.customer_id || !s.payment_method) throw conflict('add a payment method first');
  }
  ctx.legacyDb.prepare('UPDATE subscriptions SET auto_recharge = ?, updated_at = ? WHERE workspace_id = ?').run(JSON.stringify(a), Date.now(), ws);
  return a;
}

/** A provider webhook event is handled once; a replay is acknowledged and ignored. */
export function firstDelivery(ctx: AgentsContext, provider: string, eventId: string, type: string): boolean {
  return ctx.legacyDb.prepare('INSERT INTO provider_events (provider, event_id, type, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(provider, eventId, type, Date.now()).changes === 1;
}
