import type { Selectable, Updateable } from 'kysely';
import type { AgentsDb, SubscriptionsTable } from '../schema';

/** A workspace's subscription (one row per workspace) and the tier/paused flags it drives on the workspace. */
export type SubscriptionRow = Selectable<SubscriptionsTable>;

const COLUMNS = [
  'workspace_id', 'status', 'plan', 'provider', 'external_id', 'customer_id', 'payment_method',
  'trial_used', 'trial_ends_at', 'current_period_end', 'cancelled_at', 'auto_recharge', 'updated_at',
] as const;

/** The row, created with its defaults on first use. */
export async function ensureSubscription(db: AgentsDb, ws: string): Promise<SubscriptionRow> {
  await db.insertInto('subscriptions').values({ workspace_id: ws, updated_at: Date.now() }).onConflict((oc) => oc.column('workspace_id').doNothing()).execute();
  return db.selectFrom('subscriptions').select(COLUMNS).where('workspace_id', '=', ws).executeTakeFirstOrThrow();
}

export async function findSubscription(db: AgentsDb, ws: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').select(COLUMNS).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function subscriptionByExternal(db: AgentsDb, provider: string, externalId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').select(COLUMNS).where('provider', '=', provider).where('external_id', '=', externalId).executeTakeFirst();
}

export async function updateSubscription(db: AgentsDb, ws: string, patch: Omit<Updateable<SubscriptionsTable>, 'workspace_id'>): Promise<void> {
  await db.updateTable('subscriptions').set({ ...patch, updated_at: Date.now() }).where('workspace_id', '=', ws).execute();
}

/** Trial over: expired only while it is still the same trial (a concurrent activation wins). */
export async function expireTrial(db: AgentsDb, ws: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('subscriptions').set({ status: 'expired', updated_at: now })
    .where('workspace_id', '=', ws).where('status', '=', 'trialing').where('trial_ends_at', '<=', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Starts the free trial unless one was used or a subscription is on (one conditional UPDATE). */
export async function startTrial(db: AgentsDb, ws: string, plan: string, endsAt: number): Promise<boolean> {
  const r = await db
    .updateTable('subscriptions').set({ status: 'trialing', plan, provider: 'stripe', trial_used: 1, trial_ends_at: endsAt, updated_at: Date.now() })
    .where('workspace_id', '=', ws).where('trial_used', '=', 0).where('status', 'in', ['none', 'expired'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function workspaceFlags(db: AgentsDb, ws: string): Promise<{ tier: string; paused: number } | undefined> {
  return db.selectFrom('workspaces').select(['tier', 'paused']).where('id', '=', ws).executeTakeFirst();
}

export async function setWorkspaceFlags(db: AgentsDb, ws: string, flags: { tier?: string; paused?: number }): Promise<void> {
  await db.updateTable('workspaces').set(flags).where('id', '=', ws).execute();
}

/** The email a provider customer is created with. */
export async function userEmail(db: AgentsDb, userId: string): Promise<string> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
}
