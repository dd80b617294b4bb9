import type { AppContext } from '../context';
import { conflict, forbidden, unprocessable } from '../../core/errors';
import { P, PLATFORM_WS } from '../modules/platform-collections';
import { allows, levelOf, type Actor, type Level, type Role, type Scope } from '../security/policy';
import type { Doc } from '../store/types';
import { limitsOf } from '../modules/admin/plans';
import { fieldProblem } from '../http/collection-schema';
import type { PushBody } from './protocol';
import { canonicalize } from '../modules/certs/jcs';

/**
 * A bench's push passes the checks of the routes that write the same collections, with the bench
 * acting as the role of whoever enrolled it: the scope each collection belongs to (edit needed),
 * the owner rules of the team, centrally unique portal slugs, sane field values, and on central
 * the workspace's plan limits for new devices, customers and members.
 */
const SCOPE_OF: Record<string, Scope> = {
  alerts: 'ops', ops: 'ops', devices: 'ops', jobs: 'ops', shipments: 'ops', dockReservations: 'ops', erasureCerts: 'ops',
  labelTemplates: 'ops', labelLog: 'ops', capacity: 'ops', capacityLoad: 'ops', replace: 'ops', onboarding: 'ops',
  deviceRequests: 'ops', shifts: 'ops', shiftHistory: 'ops', staff: 'ops', inbound: 'ops', inboundLines: 'ops',
  customers: 'sales', quotes: 'sales', quoteDrafts: 'sales', invoices: 'sales', daasQuotes: 'sales', daasSends: 'sales',
  daasState: 'sales', storeOrders: 'sales', storeProducts: 'sales', buybacks: 'sales', buybackReceipts: 'sales',
  refurbStock: 'sales', portals: 'sales', portalStats: 'sales', networkDeals: 'sales', leads: 'sales', signs: 'sales',
  bookings: 'sales', referrals: 'sales', partners: 'sales', eventRegs: 'sales', abStats: 'sales',
  inquiries: 'support', tickets: 'support', ticketMessages: 'support', survey: 'support', surveyResponses: 'support',
  workdesk: 'support', workdeskDocs: 'support', workdeskThreads: 'support', reviews: 'support',
  reports: 'mgmt', forecast: 'mgmt', esg: 'mgmt', compliance: 'mgmt', capa: 'mgmt', auditLog: 'mgmt', custody: 'mgmt',
  centers: 'mgmt', network: 'mgmt',
  settings: 'settings', integrations: 'settings', syncLog: 'settings',
};
/** Collections only an owner or admin may write from a bench (membership and team plan). */
const MANAGER_ONLY = new Set(['team']);
/** Every collection a bench pushes (the scope table and the manager-only ones); any other is refused. */
export const PUSHED_COLLECTIONS: readonly string[] = [...Object.keys(SCOPE_OF), ...MANAGER_ONLY];
const ROLES: readonly string[] = ['owner', 'admin', 'exec', 'member', 'viewer'];
const LEVELS: readonly string[] = ['none', 'view', 'edit'];
// Field names are document keys (some are customer names): any 1..200 characters without control characters.
// eslint-disable-next-line no-control-regex
const FIELD = /^[^\u0000-\u001f\u007f]{1,200}$/u;
const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** The largest single value a route accepts (the company logo data URL, 6 MB). */
const MAX_VALUE = 7 * 1024 * 1024;
/** Plan-counted collections and the resource they count as. */
const COUNTED: Record<string, 'devices' | 'customers' | 'members'> = { devices: 'devices', customers: 'customers', team: 'members' };

type Change = PushBody['changes'][number];

const refuse = (c: Change, error: string, message: string) => forbidden(error, { coll: c.coll, id: c.id, message });

function checkValues(app: AppContext, c: Change): void {
  for (const [field, value] of Object.entries(c.fields)) {
    if (!FIELD.test(field)) throw unprocessable('invalid_field', { coll: c.coll, id: c.id, field });
    if (field === '_deleted' && typeof value !== 'boolean') throw unprocessable('invalid_field', { coll: c.coll, id: c.id, field });
    if (JSON.stringify(value ?? null).length > MAX_VALUE) throw unprocessable('value_too_large', { coll: c.coll, id: c.id, field });
  }
  // Collections with a declared schema: each field as the collection's write routes would store it.
  const schema = app.collections?.get(c.coll);
  const problem = schema ? fieldProblem(schema, c.id, c.fields) : null;
  if (problem) {
    throw unprocessable('invalid_field', {
      coll: c.coll,
      id: c.id,
      field: problem.field,
      reason: problem.message,
      message: `${c.coll} ${c.id} の項目 ${problem.field} は受け付けられません: ${problem.message}`,
    });
  }
}

async function checkTeam(app: AppContext, ws: string, c: Change, role: Role): Promise<void> {
  const f = c.fields;
  if ('role' in f && !ROLES.includes(String(f.role))) throw unprocessable('invalid_field', { coll: c.coll, id: c.id, field: 'role' });
  if ('scopes' in f) {
    const s = f.scopes;
    const ok = s !== null && typeof s === 'object' && !Array.isArray(s) && Object.values(s as Doc).every((v) => LEVELS.includes(String(v)));
    if (!ok) throw unprocessable('invalid_field', { coll: c.coll, id: c.id, field: 'scopes' });
  }
  if (role === 'owner') return;
  const cur = await app.store.get<Doc>(ws, 'team', c.id);
  if (f.role === 'owner' || cur?.role === 'owner') throw refuse(c, 'owner only', 'オーナーの変更・削除、オーナーへの変更はオーナーのみ行えます');
}

async function checkPortal(app: AppContext, ws: string, c: Change): Promise<void> {
  if (!('slug' in c.fields)) return;
  const slug = c.fields.slug;
  if (typeof slug !== 'string' || !SLUG.test(slug)) throw unprocessable('invalid_field', { coll: c.coll, id: c.id, field: 'slug' });
  const idx = await app.store.get<Doc>(PLATFORM_WS, P.portalSlugs, slug);
  if (idx && idx.tid !== ws) throw conflict('slug taken', { coll: c.coll, id: c.id, message: 'このスラッグは他のワークスペースで使用されています' });
}

/** Revoking a certificate is for owners and admins, and a revocation is never undone or rewritten. */
async function checkRevocation(app: AppContext, ws: string, c: Change, role: Role): Promise<void> {
  if (role !== 'owner' && role !== 'admin') throw refuse(c, 'forbidden', '証明書の失効はオーナーまたは管理者のみ行えます');
  const cur = await app.store.get<Doc>(ws, 'erasureCerts', c.id);
  if (cur?.revoked && canonicalize(cur.revoked) !== canonicalize(c.fields.revoked ?? null)) throw conflict('already revoked', { coll: c.coll, id: c.id, message: 'この証明書は失効済みです' });
}

/** Refuse the whole batch (nothing stored) when any change is one the bench's role may not make. */
export async function checkPush(app: AppContext, bench: { ws: string; role: Role | null; scopes: Partial<Record<Scope, Level>> }, body: PushBody): Promise<void> {
  const role = bench.role;
  if (!role) throw forbidden('enroller_not_member');
  const actor: Actor = { kind: 'member', ws: bench.ws, role, scopes: bench.scopes, accountId: null, email: null, memberId: null, assist: false };
  const adding: Record<string, Set<string>> = {};
  for (const c of body.changes) {
    checkValues(app, c);
    const scope = SCOPE_OF[c.coll];
    if (!scope && !MANAGER_ONLY.has(c.coll)) {
      throw unprocessable('unknown_collection', { coll: c.coll, id: c.id, message: `${c.coll} は作業台から同期できるデータではありません` });
    }
    if (!scope) {
      if (!allows('manager', actor)) throw refuse(c, 'forbidden', 'この作業台の登録者にはこのデータを変更する権限がありません');
    } else if (levelOf(role, bench.scopes, scope) !== 'edit') {
      throw refuse(c, 'forbidden', 'この作業台の登録者にはこのデータを変更する権限がありません');
    }
    if (c.coll === 'team') await checkTeam(app, bench.ws, c, role);
    if (c.coll === 'portals') await checkPortal(app, bench.ws, c);
    if (c.coll === 'settings' && c.id === 'teamPlan' && role !== 'owner' && role !== 'admin') throw refuse(c, 'forbidden', 'プランはオーナーまたは管理者のみ変更できます');
    if (c.coll === 'erasureCerts' && 'revoked' in c.fields) await checkRevocation(app, bench.ws, c, role);
    const resource = COUNTED[c.coll];
    if (resource && c.fields._deleted !== true) (adding[c.coll] ??= new Set()).add(c.id);
  }
  if (app.mode !== 'central') return;
  const tenant = await app.store.get<Doc>(PLATFORM_WS, P.tenants, bench.ws);
  const limits = tenant ? limitsOf(tenant.planKey) : null;
  if (!limits) return;
  for (const [coll, ids] of Object.entries(adding)) {
    let fresh = 0;
    for (const id of ids) if (!(await app.store.get(bench.ws, coll, id))) fresh += 1;
    const current = await app.store.count(bench.ws, coll);
    const limit = limits[COUNTED[coll]];
    if (fresh > 0 && current + fresh > limit) {
      throw forbidden('plan_limit', { resource: COUNTED[coll], limit, current, planKey: tenant?.planKey, message: `プランの上限（${limit}）を超えます` });
    }
  }
}

/** After a push is stored: pushed portal slugs join the platform index (never taking another tenant's). */
export async function indexPushedPortals(app: AppContext, ws: string, body: PushBody): Promise<void> {
  for (const c of body.changes) {
    if (c.coll !== 'portals') continue;
    const p = await app.store.get<Doc>(ws, 'portals', c.id);
    const slug = typeof p?.slug === 'string' ? p.slug : '';
    if (!p || !slug) continue;
    await app.store.transact(PLATFORM_WS, async (tx) => {
      const cur = await tx.get<Doc>(P.portalSlugs, slug);
      if (cur && cur.tid !== ws) return;
      await tx.put(P.portalSlugs, slug, { id: slug, tid: ws, key: p.id, published: p.published === true });
    });
  }
}
