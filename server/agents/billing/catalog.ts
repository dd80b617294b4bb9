import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import type { AgentsDb } from '../schema';
import { platformBundles, type Bundle } from '../platform-settings';

export type { Bundle };

/** Credit bundles sold by one-off checkout while the operator has set none (prices in USD cents). */
export const BUILT_IN_BUNDLES: Bundle[] = [
  { id: 'credits-1000', name: '1,000 credits', credits: 1000, priceCents: 1000 },
  { id: 'credits-5000', name: '5,000 credits', credits: 5000, priceCents: 4500 },
  { id: 'credits-20000', name: '20,000 credits', credits: 20000, priceCents: 16000 },
];

/** Monthly plans: the tier they give and the credits each paid month adds to the wallet. */
export interface Plan {
  id: string;
  name: string;
  tier: string;
  priceCents: number;
  monthlyCredits: number;
}
export const PLANS: Plan[] = [
  { id: 'starter', name: 'Starter', tier: 'starter', priceCents: 1900, monthlyCredits: 2000 },
  { id: 'pro', name: 'Pro', tier: 'pro', priceCents: 4900, monthlyCredits: 10000 },
  { id: 'business', name: 'Business', tier: 'business', priceCents: 19900, monthlyCredits: 50000 },
];

/** A payment method on file opens a free trial of this plan for this many days. */
export const TRIAL_PLAN = 'starter';
export const TRIAL_DAYS = 14;

/** The bundles on sale: the operator's (PUT /api/admin/bundles) when set, else the built-in ones. */
/** The bundles on sale (the operator's, else the built-in ones); `db` may be the caller's transaction. */
export const bundlesOnSale = async (db: AgentsDb): Promise<Bundle[]> => (await platformBundles(db)) ?? BUILT_IN_BUNDLES;
export const bundleById = async (db: AgentsDb, id: string) => (await bundlesOnSale(db)).find((b) => b.id === id) ?? null;

/** A bundle a buyer may check out now; an id not (or no longer) on sale is refused with the ids that are. */
export async function bundleForSale(ctx: AgentsContext, id: string): Promise<Bundle> {
  const bundle = await bundleById(ctx.db, id);
  if (!bundle) throw badRequest('bundle: unknown bundle', { bundles: (await bundlesOnSale(ctx.db)).map((b) => b.id) });
  return bundle;
}
export const planById = (id: string) => PLANS.find((p) => p.id === id) ?? null;

const usd = (cents: number) => Math.round(cents) / 100;

export async function pricing(ctx: AgentsContext) {
  return {
    currency: 'USD',
    creditCost: 1,
    bundles: (await bundlesOnSale(ctx.db)).map((b) => ({ id: b.id, name: b.name, credits: b.credits, price: usd(b.priceCents), priceCents: b.priceCents })),
    plans: PLANS.map((p) => ({ id: p.id, name: p.name, tier: p.tier, price: usd(p.priceCents), priceCents: p.priceCents, interval: 'month', monthlyCredits: p.monthlyCredits })),
    trial: { plan: TRIAL_PLAN, days: TRIAL_DAYS },
  };
}
