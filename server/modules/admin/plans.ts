import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import type { RouteDef } from '../../http/define-route';
import { P, PLATFORM_WS } from '../../security/platform';
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

type Resource = keyof PlanLimits;
const LABEL: Record<Resource, string> = { devices: '端末', members: 'メンバー', customers: '顧客' };

/** Refuse a write that would take the workspace past its plan limit (403 plan_limit, naming the limit). */
export async function assertWithinPlan(app: AppContext, ws: string, resource: Resource, current: number, adding: number): Promise<void> {
  const t = await app.store.get<Doc>(PLATFORM_WS, P.tenants, ws);
  const limits = t ? limitsOf(t.planKey) : null;
  if (!limits) return;
  const limit = limits[resource];
  if (current + adding > limit) {
    throw new HttpError(403, 'plan_limit', {
      resource, limit, current, planKey: t?.planKey,
      message: `${String(t?.planKey)} プランの${LABEL[resource]}上限（${limit}）を超えます`,
    });
  }
}

/** Creation routes of other domains that count against a plan limit. */
const COUNTED: Record<string, { resource: Resource; coll: string; adding: (body: Doc) => number }> = {
  'post /api/device': { resource: 'devices', coll: 'devices', adding: () => 1 },
  'post /api/devices/bulk': {
    resource: 'devices', coll: 'devices',
    adding: (b) => { const n = Math.trunc(Number(b.qty)); return Number.isFinite(n) ? Math.min(1000, Math.max(1, n)) : 1; },
  },
  'post /api/customer': { resource: 'customers', coll: 'customers', adding: () => 1 },
  'post /api/team/member': { resource: 'members', coll: 'team', adding: () => 1 },
};

/** Called by the registry before a handler runs. */
export async function enforcePlanLimits(app: AppContext, route: RouteDef, ws: string, body: unknown): Promise<void> {
  const c = COUNTED[`${route.method} ${route.path}`];
  if (!ws || !c) return;
  const b = body && typeof body === 'object' ? (body as Doc) : {};
  await assertWithinPlan(app, ws, c.resource, await app.store.count(ws, c.coll), c.adding(b));
}
