import { forbidden } from '../../../core/errors';
import { P, PLATFORM_WS } from '../platform-collections';
import type { CountedCollection, CountGuard } from '../../store/count-guard';
import type { Doc } from '../../store/types';

export interface PlanLimits {
  devices: number;
  members: number;
  customers: number;
}
export const PLANS = [
  { key: 'starter', name: 'Starter', priceJpy: 128000, limits: { devices: 100, members: 3, customers: 10 } },
  { key: 'business', name: 'Business', priceJpy: 388000, limits: { devices: 300, members: 10, customers: 30 } },
  { key: 'enterprise', name: 'Enterprise', priceJpy: 908000, limits: null },
] as const;
export type PlanKey = (typeof PLANS)[number]['key'];
export const PLAN_KEYS = PLANS.map((p) => p.key);

export const planByName = (name: unknown): PlanKey | null => {
  const s = String(name ?? '').toLowerCase();
  return (PLAN_KEYS as readonly string[]).includes(s) ? (s as PlanKey) : null;
};

export function limitsOf(planKey: unknown): PlanLimits | null {
  const p = PLANS.find((x) => x.key === planKey);
  return p?.limits ? { ...p.limits } : null;
}

export type PlanResource = keyof PlanLimits;
const LABEL: Record<PlanResource, string> = { devices: '端末', members: 'メンバー', customers: '顧客' };
const isResource = (r: string): r is PlanResource => Object.hasOwn(LABEL, r);

/**
 * Plan limits of central tenants over the collections the modules declare as plan-counted: a write
 * that grows one past the tenant's limit is refused with 403 plan_limit (naming the limit) inside
 * its own transaction, so two concurrent writes can never both pass. A workspace without a plan
 * (a bench, an anonymous workspace, the enterprise plan) has no limit.
 */
export function planLimitGuard(counted: readonly CountedCollection[]): CountGuard {
  for (const c of counted) if (!isResource(c.resource)) throw new Error(`collection ${c.coll} counts against an unknown plan limit: ${c.resource}`);
  return {
    counted,
    async applies(store, tx) {
      const t = await store.get<Doc>(PLATFORM_WS, P.tenants, tx.ws);
      return !!t && limitsOf(t.planKey) !== null;
    },
    async check(store, _tx, g) {
      const t = await store.get<Doc>(PLATFORM_WS, P.tenants, g.ws);
      const limits = t ? limitsOf(t.planKey) : null;
      if (!limits) return;
      const resource = g.resource as PlanResource;
      const limit = limits[resource];
      if (g.after <= limit) return;
      throw forbidden('plan_limit', {
        resource, limit, current: g.before, planKey: t?.planKey,
        message: `${String(t?.planKey)} プランの${LABEL[resource]}上限（${limit}）を超えます`,
      });
    },
  };
}
