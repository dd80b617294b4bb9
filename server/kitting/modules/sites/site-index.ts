import { P, PLATFORM_WS } from '../platform-collections';
import type { Doc, Store, Tx } from '../../store/types';

/** Published sites one workspace may keep, and publishes it may make per 10 minutes. */
export const MAX_SITES = 20;
export const PUBLISH_PER_WINDOW = 30;
export const PUBLISH_WINDOW_MS = 10 * 60_000;

/**
 * One small record per tenant listing its published sites (slug, name, updated), kept current by
 * every publish, unpublish and restore in the same transaction: the site list reads one record
 * instead of every tenant's pages.
 */
export interface SiteEntry {
  slug: string;
  name: string;
  updated: number;
}

export async function siteIndex(tx: Pick<Tx, 'get'>, tenant: string): Promise<SiteEntry[]> {
  const rec = await tx.get<Doc>(P.siteIndex, tenant);
  return Array.isArray(rec?.sites) ? (rec.sites as SiteEntry[]) : [];
}

export async function indexSite(tx: Tx, tenant: string, entry: SiteEntry | null, slug: string): Promise<SiteEntry[]> {
  const sites = (await siteIndex(tx, tenant)).filter((s) => s.slug !== slug);
  if (entry) sites.push(entry);
  sites.sort((a, b) => a.slug.localeCompare(b.slug));
  await tx.put(P.siteIndex, tenant, { id: tenant, sites });
  return sites;
}

/** After a restore (which rewrites a tenant's sites wholesale): the index from the sites themselves. */
export async function rebuildSiteIndex(tx: Tx, tenant: string): Promise<void> {
  const sites = (await tx.list(P.sites))
    .filter((s) => s.tenant === tenant)
    .map((s) => ({ slug: String(s.slug), name: String(s.name ?? s.slug), updated: Number(s.updated ?? 0) }));
  sites.sort((a, b) => a.slug.localeCompare(b.slug));
  await tx.put(P.siteIndex, tenant, { id: tenant, sites });
}

const BACKFILLED = 'site_index_backfilled';

/**
 * Sites published before the index existed have no index record: on start, once per database, each
 * tenant's index is rebuilt from its sites (in one platform transaction, so a publish from another
 * process waits for it and is never lost). Later starts only read the meta flag.
 */
export async function backfillSiteIndex(store: Store): Promise<number> {
  if (await store.meta(BACKFILLED)) return 0;
  const rebuilt = await store.transact(PLATFORM_WS, async (tx) => {
    const tenants = new Set<string>();
    for (const s of await tx.list(P.sites)) if (typeof s.tenant === 'string') tenants.add(s.tenant);
    for (const tenant of tenants) await rebuildSiteIndex(tx, tenant);
    return tenants.size;
  });
  await store.setMeta(BACKFILLED, String(Date.now()));
  return rebuilt;
}
