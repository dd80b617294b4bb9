import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { notFound, unauthorized, unavailable } from '../../../core/errors';
import { isReservedWorkspace, P, PLATFORM_WS } from '../platform-collections';
import { mintToken, readToken } from '../../security/tokens';
import { declareLookup } from '../../store/lookups';
import type { Doc, Tx } from '../../store/types';
import { jstDate } from '../../../../shared/dates';
import { DEFAULT_DEVICE_STATUS, deviceChip, RECEIVED_STATUS } from '../../../../shared/devices';
import { STAGE_DEVICE_STATUS } from '../../../../shared/jobs';

export const PORTALS = 'portals';
/** Portals are found by client name and by public slug through their lookup indexes, never by reading them all. */
const PORTALS_BY_NAME = declareLookup(PORTALS, 'name');
const PORTALS_BY_SLUG = declareLookup(PORTALS, 'slug');

/** What finding a portal needs: a transaction, or the store bound to one workspace (`portalReader`). */
export type PortalReader = Pick<Tx, 'get' | 'find'>;

export const portalReader = (app: AppContext, ws: string): PortalReader => ({
  get: <T extends Doc = Doc>(coll: string, id: string) => app.store.get<T>(ws, coll, id),
  find: <T extends Doc = Doc>(coll: string, field: string, value: string) => app.store.find<T>(ws, coll, field, value),
});

/** The portal of a client, named by its client name (the oldest such portal) or by its key. */
export async function portalByNameOrId(r: PortalReader, key: string): Promise<Doc | null> {
  const [byName] = await r.find(PORTALS_BY_NAME.coll, PORTALS_BY_NAME.field, key);
  return byName ?? (await r.get(PORTALS, key));
}

/** The published portal holding a public slug. */
export async function publishedPortalBySlug(r: PortalReader, slug: string): Promise<Doc | null> {
  return (await r.find(PORTALS_BY_SLUG.coll, PORTALS_BY_SLUG.field, slug)).find((p) => p.published === true) ?? null;
}
export const PORTAL_STATS = 'portalStats';
/** The one record of portalStats: tickets raised and downloads made through the portals. */
export const PORTAL_COUNTERS = 'counters';

export interface PortalBinding {
  tid: string;
  client: string;
  iat: number;
}

const revocationKey = (tid: string, client: string) => `${tid}\n${client}`;

/** How long a portal link works. */
const PORTAL_LINK_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A signed portal token binding one client (portal key) and one workspace, valid PORTAL_LINK_DAYS. */
export function mintPortalToken(app: AppContext, tid: string, client: string, iat = Date.now()): string {
  return mintToken(app.secret, 'portal', { tid, client, iat, n: randomBytes(4).toString('hex') }, PORTAL_LINK_DAYS * DAY_MS);
}

/** A fresh portal link (path and token) and the last day it opens (JST, YYYY-MM-DD). */
export function portalLink(app: AppContext, tid: string, client: string): { path: string; expires: string } {
  const iat = Date.now();
  const token = mintPortalToken(app, tid, client, iat);
  return { path: `/portal.html?t=${encodeURIComponent(token)}`, expires: jstDate(iat + PORTAL_LINK_DAYS * DAY_MS) };
}

export const portalLinkInvalid = () =>
  unauthorized('portal_link_invalid', { code: 'portal_link_invalid', message: 'このリンクは無効か、有効期限が切れています' });

/** Verify signature, expiry and revocation; anything else is portal_link_invalid. */
export async function readPortalToken(app: AppContext, token: unknown): Promise<PortalBinding> {
  const t = readToken(app.secret, 'portal', token);
  if (!t || typeof t.tid !== 'string' || typeof t.client !== 'string' || typeof t.iat !== 'number' || isReservedWorkspace(t.tid)) throw portalLinkInvalid();
  const rev = await app.store.get<Doc>(PLATFORM_WS, P.portalRevocations, revocationKey(t.tid, t.client));
  if (rev && t.iat <= (rev.before as number)) throw portalLinkInvalid();
  return { tid: t.tid, client: t.client, iat: t.iat };
}

/** Invalidate every link issued so far for this client of this workspace. */
export async function revokePortalLinks(app: AppContext, tid: string, client: string): Promise<number> {
  const id = revocationKey(tid, client);
  return app.store.transact(PLATFORM_WS, async (tx) => {
    const cur = await tx.get<Doc>(P.portalRevocations, id);
    const count = ((cur?.count as number) ?? 0) + 1;
    await tx.put(P.portalRevocations, id, { id, tid, client, before: Date.now(), count });
    return count;
  });
}

export const slugify = (s: string) =>
  s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32);

/**
 * The portal entry for a client name: found, or created (a create never overwrites). The admin console's
 * link by name creates it published; the customer screen creates it unpublished (publishing is its own control).
 */
export async function ensurePortalForClient(tx: Tx, name: string, published = true): Promise<Doc> {
  const found = await portalByNameOrId(tx, name);
  if (found) return found;
  let id = `c${randomBytes(4).toString('hex')}`;
  while (await tx.get(PORTALS, id)) id = `c${randomBytes(4).toString('hex')}`;
  const slug = `${slugify(name) || 'client'}-${randomBytes(2).toString('hex')}`;
  return tx.put(PORTALS, id, { id, name, slug, suffix: slug, published, last: published ? 'たった今' : '—' });
}

export async function bumpCounter(tx: Tx, key: '_tickets' | '_dls'): Promise<Doc> {
  const cur = (await tx.get<Doc>(PORTAL_STATS, PORTAL_COUNTERS)) ?? { id: PORTAL_COUNTERS, _tickets: 0, _dls: 0 };
  return tx.put(PORTAL_STATS, PORTAL_COUNTERS, { ...cur, [key]: ((cur[key] as number) ?? 0) + 1 });
}

export async function portalState(app: AppContext, ws: string): Promise<Doc> {
  const state: Doc = {};
  for (const p of await app.store.list(ws, PORTALS)) state[String(p.id)] = p;
  const c = await app.store.get<Doc>(ws, PORTAL_STATS, PORTAL_COUNTERS);
  state._tickets = c?._tickets ?? 0;
  state._dls = c?._dls ?? 0;
  return state;
}

export async function portalEntry(app: AppContext, ws: string, key: string): Promise<Doc> {
  const p = await app.store.get<Doc>(ws, PORTALS, key);
  if (!p) throw notFound('portal_not_found', { code: 'portal_not_found' });
  return p;
}

/**
 * Devices the center holds or has delivered for the customer: received, on a job card's work stages (the
 * stage table of shared/jobs.ts), stored or shipped; 作業中 is the work status of older ledgers.
 */
const ACTIVE = new Set<string>([RECEIVED_STATUS, ...Object.values(STAGE_DEVICE_STATUS), '作業中', '保管中', '稼働中', '貸出中']);
ACTIVE.delete(DEFAULT_DEVICE_STATUS); // still awaited, not in hand

/** Device counts and list of one client: IMEIs masked to the last 6 digits, 200 rows max. */
export async function clientDevices(app: AppContext, ws: string, name: string) {
  try {
    const devices = (await app.store.list(ws, 'devices')).filter((d) => d.cust === name);
    const active = devices.filter((d) => ACTIVE.has(String(d.status))).length;
    // Customer-facing fields only: the bench's storage places (作業台1, 修理棚R-02 …) stay inside the center.
    const list = devices.slice(0, 200).map((d) => ({
      imei: `••••${String(d.imei ?? '').slice(-6)}`,
      model: d.model ?? '',
      status: d.status ?? '',
      chip: d.chip ?? deviceChip(String(d.status ?? '')),
    }));
    return { total: devices.length, active, computed: true, list, shown: list.length };
  } catch {
    return { total: 0, active: 0, computed: false, reason: 'device ledger unavailable', list: [], shown: 0 };
  }
}

/** How many documents of each kind a portal lists (the newest). */
const PORTAL_DOCUMENTS_MAX = 50;

/**
 * The documents a customer may download from its portal: its erasure certificates and its invoices that
 * have left draft (a draft is not the customer's yet). Matched on the customer name the portal carries.
 */
export async function clientDocuments(app: AppContext, ws: string, name: string) {
  const certs = (await app.store.list(ws, 'erasureCerts'))
    .filter((c) => c.cust === name)
    .sort((a, b) => String(b.date ?? '').localeCompare(String(a.date ?? '')) || String(b.no).localeCompare(String(a.no)))
    .slice(0, PORTAL_DOCUMENTS_MAX)
    .map((c) => ({ no: String(c.no ?? c.id), date: String(c.date ?? ''), count: Number(c.count) || 0, method: String(c.method ?? '') }));
  const invoices = (await app.store.list(ws, 'invoices'))
    .filter((i) => i.cust === name && typeof i.status === 'string' && i.status !== 'draft')
    .sort((a, b) => String(b.month ?? '').localeCompare(String(a.month ?? '')) || String(b.id).localeCompare(String(a.id)))
    .slice(0, PORTAL_DOCUMENTS_MAX)
    .map((i) => ({ id: String(i.id), month: String(i.month ?? ''), due: String(i.due ?? ''), amount: Number(i.amount) || 0, paid: i.status === 'paid' }));
  return { certs, invoices };
}
