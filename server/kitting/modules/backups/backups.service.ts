import type { AppContext } from '../../context';
import { notFound } from '../../../core/errors';
import { P, PLATFORM_WS } from '../platform-collections';
import { randomKey } from '../../../core/ids';
import type { Doc } from '../../store/types';
import { rebuildSiteIndex } from '../sites/site-index';
import { declareLookup } from '../../store/lookups';

/** A tenant's published sites are found by tenant (never by reading every tenant's pages). */
const SITES_BY_TENANT = declareLookup(P.sites, 'tenant');

/** Deep copy of a tenant record and its published sites. */
export async function takeBackup(app: AppContext, tenantId: string, by: string, reason: string): Promise<Doc> {
  return app.store.transact(PLATFORM_WS, async (tx) => {
    const tenant = await tx.get<Doc>(P.tenants, tenantId);
    if (!tenant) throw notFound('tenant not found');
    const sites = await tx.find(SITES_BY_TENANT.coll, SITES_BY_TENANT.field, tenantId);
    const id = randomKey('bk-', 4);
    const doc = { id, ts: Date.now(), by, reason, tenantId, tenantName: tenant.name, sites: sites.length, snapshot: structuredClone({ tenant, sites }) };
    await tx.put(P.backups, id, doc);
    return backupMeta(doc);
  });
}

export function backupMeta(b: Doc): Doc {
  const { snapshot: _s, ...meta } = b;
  return meta;
}

export async function tenantBackups(app: AppContext, tenantId: string): Promise<Doc[]> {
  return (await app.store.list(PLATFORM_WS, P.backups, { reverse: true })).filter((b) => b.tenantId === tenantId).map(backupMeta);
}

/**
 * Decisions a restore never rolls back: whether the tenant may run at all and what it pays for
 * belong to the platform admin's current word, not to an old snapshot.
 */
const KEPT_ON_RESTORE = ['status', 'plan', 'planKey', 'planStatus', 'planSource', 'limits', 'seats', 'mrr', 'owner', 'kind'] as const;

/** Put a snapshot back: tenant record and its sites as they were (current state is backed up first by the caller). */
export async function restoreBackup(app: AppContext, tenantId: string, backupId: string): Promise<Doc> {
  return app.store.transact(PLATFORM_WS, async (tx) => {
    const b = await tx.get<Doc>(P.backups, backupId);
    if (!b || b.tenantId !== tenantId) throw notFound('backup not found');
    const snap = b.snapshot as { tenant: Doc; sites: Doc[] };
    for (const s of await tx.find(SITES_BY_TENANT.coll, SITES_BY_TENANT.field, tenantId)) await tx.remove(P.sites, String(s.slug));
    // A slug another tenant has published since the backup stays theirs: restoring never overwrites it.
    for (const s of snap.sites) {
      const cur = await tx.get<Doc>(P.sites, String(s.slug));
      if (!cur || cur.tenant === tenantId) await tx.put(P.sites, String(s.slug), s);
    }
    const current = (await tx.get<Doc>(P.tenants, tenantId)) ?? {};
    const kept: Doc = {};
    for (const k of KEPT_ON_RESTORE) if (k in current) kept[k] = current[k];
    const restored = await tx.put(P.tenants, tenantId, { ...snap.tenant, ...kept });
    await rebuildSiteIndex(tx, tenantId);
    return restored;
  });
}
