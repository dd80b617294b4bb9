import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import type { Doc } from '../store/types';

/**
 * Platform-level data (tenants, accounts, sub-admins, admin config, backups, security
 * events) lives in this reserved workspace: written through the Store API so it is
 * change-logged, but never reachable through kit_tid or a session (see isReservedWorkspace).
 */
export const PLATFORM_WS = '_platform';

export const P = {
  tenants: 'tenants',
  accounts: 'accounts',
  subadmins: 'subadmins',
  config: 'siteConfig',
  backups: 'backups',
  activity: 'activity',
  security: 'securityEvents',
  outbox: 'outbox',
  challenges: 'challenges',
  phoneCodes: 'phoneCodes',
  deleteRequests: 'deleteRequests',
  portalRevocations: 'portalRevocations',
  notes: 'notes',
  files: 'files',
  sites: 'sites',
  connections: 'connections',
  portalSlugs: 'portalSlugs',
  sessions: 'sessions',
  benchEnrollers: 'benchEnrollers',
  siteIndex: 'siteIndex',
} as const;

/** Ids starting with `_` are reserved for platform data and never resolve as a workspace. */
export function isReservedWorkspace(id: string): boolean {
  return id.startsWith('_');
}

export function randomKey(prefix: string, bytes = 6): string {
  return `${prefix}${Date.now().toString(36)}${randomBytes(bytes).toString('hex')}`;
}

/** Platform routes answer only on the central server; the bench says not_found. */
export function requireCentral(app: AppContext): void {
  if (app.mode !== 'central') throw notFound('not_found');
}

export interface ActivityEntry {
  by: string;
  role: 'admin' | 'subadmin' | 'account' | 'system';
  action: string;
  tenantId?: string;
  tenantName?: string;
  detail?: string;
  subId?: string;
}

export async function logActivity(app: AppContext, e: ActivityEntry): Promise<void> {
  const id = randomKey('ac-');
  await app.store.transact(PLATFORM_WS, (tx) =>
    tx.put(P.activity, id, { id, ts: Date.now(), tenantId: '', tenantName: '', detail: '', ...e }),
  );
}

export async function securityEvent(app: AppContext, type: string, detail: Doc): Promise<void> {
  const id = randomKey('se-');
  await app.store.transact(PLATFORM_WS, (tx) => tx.put(P.security, id, { id, ts: Date.now(), type, ...detail }));
  app.log(`security ${type} ${Object.entries(detail).map(([k, v]) => `${k}=${String(v)}`).join(' ')}`);
}

/** Register a workspace in the platform tenant list (anonymous, account, admin-created, signup). */
export async function registerWorkspace(app: AppContext, id: string, kind: string, fields: Doc = {}): Promise<Doc> {
  return app.store.transact(PLATFORM_WS, async (tx) => {
    const cur = await tx.get(P.tenants, id);
    if (cur) return (await tx.patch(P.tenants, id, fields)) as Doc;
    return tx.put(P.tenants, id, {
      id,
      kind,
      name: kind === 'anonymous' ? '匿名ワークスペース' : '新規テナント',
      plan: 'Starter',
      seats: 3,
      used: 0,
      status: kind === 'anonymous' ? 'active' : 'trial',
      email: '',
      devices: 0,
      mrr: 0,
      features: {},
      clients: [],
      created: Date.now(),
      ...fields,
    });
  });
}
