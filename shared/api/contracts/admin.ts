/** Wire contract of platform administration: admin and sub-admin consoles, notes, files and backups. */
import { z } from 'zod';
import { num, ok, okItem, okList, optStr, str } from '../primitives';
import { Backup, SubAdmin, Tenant, TenantStats } from './platform';
import { PublicAccount } from './workspace';

const Row = z.looseObject({});
const url = ok({ url: str });
const done = ok({});
const TenantView = {
  tenant: Tenant,
  dashboards: z.array(z.looseObject({ client: str, url: str.nullable() })),
  published: z.array(z.looseObject({ slug: optStr, url: optStr })),
  origin: str,
};
export const ActivityEntry = z.looseObject({ ts: num.optional(), by: optStr, role: optStr, action: optStr, tenantId: optStr, tenantName: optStr, detail: optStr });
const SiteSettings = ok({ config: z.record(z.string(), z.unknown()), meta: z.looseObject({ updatedAt: num.nullable().optional(), updatedBy: optStr }) });

/** Success bodies of the admin console routes. */
export const adminResponses = {
  login: ok({ token: str }),
  tenants: ok({ tenants: z.array(Tenant), stats: TenantStats, origin: str }),
  tenant: ok(TenantView),
  saveTenant: okItem('tenant', Tenant),
  removeTenant: done,
  client: url,
  revoke: ok({ client: str, revocations: z.unknown() }),
  impersonate: url,
  backups: ok({ log: z.array(Backup), daily: z.looseObject({ last: num.nullable(), tenants: num }) }),
  activity: okList('activity', ActivityEntry),
  events: okList('events', Row),
  deleteRequests: okList('requests', Row),
  workspaces: ok({ workspaces: z.array(Row), plans: z.array(Row), operatorTenant: Row }),
  plan: ok({ tenantId: str, planKey: str, status: str, previous: z.unknown(), limits: z.unknown() }),
  assist: ok({ url: str, expiresAt: num }),
  accounts: okList('accounts', PublicAccount),
  removeAccount: ok({ removed: z.looseObject({ email: str, tenantId: optStr }) }),
  config: SiteSettings.extend({ defaults: z.record(z.string(), z.unknown()) }),
  saveConfig: SiteSettings,
  subadmins: ok({ subadmins: z.array(SubAdmin), tenants: z.array(z.looseObject({ id: str, name: optStr })) }),
  createSubadmin: ok({ subadmin: SubAdmin, password: str }),
  subadmin: okItem('subadmin', SubAdmin),
  removeSubadmin: done,
};

/** Success bodies of the sub-admin console routes. */
export const subadminResponses = {
  login: ok({ token: str, sub: SubAdmin }),
  me: ok({ sub: SubAdmin, tenants: z.array(Tenant), stats: z.looseObject({ tenants: num, devices: num, clients: num, sites: num }), origin: str }),
  tenant: ok({ ...TenantView, backups: z.array(Backup), perms: z.looseObject({ canDelete: z.boolean() }) }),
  saveTenant: okItem('tenant', Tenant),
  client: url,
  impersonate: url,
  assist: ok({ url: str, expiresAt: num }),
  deleteRequest: ok({ requestId: str, sentTo: z.array(str), expiresInMin: z.literal(10), demoCode: optStr }),
  deleteConfirm: ok({ targetType: z.enum(['client', 'site', 'tenant']) }),
  activity: okList('activity', ActivityEntry),
  backups: okList('log', Backup),
  password: done,
};

export const Note = z.looseObject({ id: str, tenantId: optStr, ts: num.optional(), by: optStr, text: str, done: z.boolean().optional() });
export const FileMeta = z.looseObject({ id: str, tenantId: optStr, ts: num.optional(), by: optStr, name: str, type: optStr, size: num.optional() });
/** Success bodies of the per-tenant notes, files and backups routes. */
export const tenantToolResponses = {
  notes: okList('notes', Note),
  note: okItem('note', Note),
  /** `{ok, note}` on change, `{ok}` on delete. */
  changeNote: ok({ note: Note.optional() }),
  files: okList('files', FileMeta),
  file: okItem('file', FileMeta),
  download: ok({ name: str, type: optStr, data: str }),
  removeFile: done,
  backups: okList('backups', Backup),
  backup: okItem('backup', Backup),
  restore: okItem('tenant', Tenant),
  exportState: ok({ exportedAt: num, space: Row, tenants: z.array(Row), sites: z.array(Row), backups: z.array(Row), counts: z.record(z.string(), num) }),
};
