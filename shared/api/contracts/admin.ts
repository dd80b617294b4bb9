/** Wire contract of platform administration: admin and sub-admin consoles, notes, files and backups. */
import { z } from 'zod';
import { bool, intClamp, json, num as numField, oneOf, patchShape, text } from '../../fields';
import { num, ok, okItem, okList, optStr, str } from '../primitives';
import { objectBody, PLATFORM_PASSWORD_MIN, shortIdParams, tenantParams } from './common';
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

export const TENANT_PLANS = ['Starter', 'Business', 'Enterprise'] as const;
export const TENANT_STATUSES = ['active', 'trial', 'suspended'] as const;
/** A tenant as the admin console edits it (an unknown plan or status is a 400 on the write routes). */
export const TENANT_FIELDS = {
  name: text(80),
  plan: oneOf(TENANT_PLANS, 'Starter'),
  seats: intClamp(0, 100000, 3),
  used: intClamp(0, 100000, 0),
  status: oneOf(TENANT_STATUSES, 'active'),
  email: text(120),
  devices: intClamp(0, 10_000_000, 0),
  mrr: numField(),
  features: json(z.record(z.string(), z.unknown())),
  clients: json(z.array(z.string().max(80))),
};

const emailNorm = z.string().trim().toLowerCase().max(160).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'invalid email');
const tenantIds = z.array(z.string().max(120)).transform((a) => [...new Set(a)].slice(0, 200));
/** A sub-admin as the admin console writes it (create and update). */
const subadminBody = z.object({
  name: text(80).zod.optional(),
  email: emailNorm.optional(),
  password: z.string().min(PLATFORM_PASSWORD_MIN, 'password too short').max(200).optional(),
  tenants: tenantIds.optional(),
  canDelete: bool().zod.optional(),
  active: bool().zod.optional(),
});
/** A customer dashboard link of a tenant (issue or revoke). */
const clientBody = z.object({ client: text(80).zod.optional() });

/** Request schemas of the admin console routes. */
export const adminRequests = {
  login: z.object({ password: z.string().max(500).optional() }),
  params: shortIdParams,
  /** POST /api/admin/tenant: name defaults to 新規テナント, plan Starter, seats 3. */
  createTenant: z.object({ name: text(80).default('新規テナント').zod.optional(), plan: TENANT_FIELDS.plan.zod.optional(), seats: TENANT_FIELDS.seats.zod.optional(), email: text(120).zod.optional() }),
  patchTenant: patchShape(TENANT_FIELDS),
  client: clientBody,
  /** :tid of a workspace (the server also checks its format). */
  workspaceParams: z.object({ tid: z.string().min(1).max(120) }),
  /** POST /api/admin/workspace/{tid}/plan: a plan key of the plan table; status active (default), trial or suspended. */
  plan: z.object({ planKey: z.unknown().optional(), status: z.unknown().optional(), reason: text(200).zod.optional() }),
  accountParams: z.object({ email: z.string().min(1).max(200) }),
  /** PUT /api/admin/config: the switches to change, bare or under `config` (unknown keys are dropped). */
  config: z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' }),
  subadmin: subadminBody,
};
export type TenantCreate = z.input<typeof adminRequests.createTenant>;
export type TenantPatch = z.input<typeof adminRequests.patchTenant>;
export type SubadminInput = z.input<typeof adminRequests.subadmin>;
export type WorkspacePlanChange = z.input<typeof adminRequests.plan>;

/** Request schemas of the sub-admin console routes (tenants only within the sub-admin's scope). */
export const subadminRequests = {
  login: z.object({ email: z.string().max(200).optional(), password: z.string().max(200).optional() }),
  params: shortIdParams,
  workspaceParams: z.object({ tid: z.string().min(1).max(120) }),
  /** POST /api/subadmin/tenant/{id}: a sub-admin changes only the contact email (plan, seats … are the admin's: 403). */
  patchTenant: objectBody<{ email?: string }>(),
  client: clientBody,
  /** POST /api/subadmin/delete-request: emails a code that delete-confirm takes within 10 minutes. */
  deleteRequest: z.object({ tenantId: z.string().max(120).optional(), targetType: oneOf(['client', 'site', 'tenant'], 'client').zod.optional(), targetId: text(120).zod.optional() }),
  deleteConfirm: z.object({ requestId: z.string().max(120).optional(), code: z.union([z.string(), z.number()]).transform(String).optional() }),
  password: z.object({ current: z.string().max(200).optional(), next: z.string().max(200).optional() }),
};
export type SubadminLogin = z.input<typeof subadminRequests.login>;

/** An upload's data holds at most this many characters (a longer one is a 413). */
export const MAX_FILE_CHARS = 2_800_000;

/** Request schemas of the per-tenant notes, files and backups routes. */
export const tenantToolRequests = {
  params: tenantParams,
  /** POST /api/notes/{tenantId}: text is required (trimmed, clipped to 600). */
  addNote: z.object({ text: z.unknown().optional() }),
  noteParams: z.object({ tenantId: z.string().min(1).max(120), noteId: z.string().min(1).max(120) }),
  /** POST /api/notes/{tenantId}/{noteId}: delete, mark done, or change the text. */
  changeNote: z.object({ del: bool().zod.optional(), done: bool().zod.optional(), text: z.unknown().optional() }),
  /** POST /api/files/{tenantId}: name and base64 data (size-limited by the server). */
  upload: z.object({ name: z.unknown().optional(), type: z.unknown().optional(), data: z.unknown().optional(), size: z.unknown().optional() }),
  fileParams: z.object({ tenantId: z.string().min(1).max(120), fileId: z.string().min(1).max(120) }),
  backup: z.object({ reason: z.unknown().optional() }),
  restoreParams: z.object({ tenantId: z.string().min(1).max(120), backupId: z.string().min(1).max(120) }),
};
export type NoteChange = z.input<typeof tenantToolRequests.changeNote>;
export type FileUpload = z.input<typeof tenantToolRequests.upload>;
