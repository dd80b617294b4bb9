import { z } from 'zod';
import { json } from '../../../../shared/fields';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../../core/http/define-route';
import { collectionSchema, ruleField, stamp, storedField } from '../../../core/http/collection-schema';
import { badRequest, notFound } from '../../../core/errors';
import { declareSeries, issueNumber } from '../../../core/store/series';
import type { Doc, Tx } from '../../../core/store/types';
import { NETWORK_DIRS, networkCenterRules, networkDealFields, networkOemRules, networkRequests, networkResponses } from '../../../../shared/api/contracts/workspace';

export const NETWORK_DEALS = 'networkDeals';
/** A deal's seq orders deals created in the same millisecond (its key is random). */
export const DEAL_NUMBERS = declareSeries({
  name: 'networkDeal',
  period: 'none',
  coll: NETWORK_DEALS,
  field: 'seq',
  keyed: false,
  format: (n) => n,
  pattern: /^(?<n>\d+)$/,
  reserve: 100,
});
export const CENTERS = 'centers';
export const NETWORK = 'network';
export const OEM_ID = 'oem';

const DIRS = NETWORK_DIRS;
const STATUS_BY_DIR: Record<(typeof DIRS)[number], string> = { provide: '募集中', accept: '対応中', request: '承認待ち' };

const dealFields = networkDealFields;
const { deal: dealBody, center: centerBody, oem: oemBody, centerParams } = networkRequests;

function readUnits(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n <= 0) throw badRequest('units required', { message: '台数(units)は1以上の整数で指定してください' });
  return n;
}

function readRate(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw badRequest('invalid rate', { message: '単価(rate)は数値で指定してください' });
  return Math.round(n);
}

const newestFirst = (a: Doc, b: Doc) => Number(b.created ?? 0) - Number(a.created ?? 0) || Number(b.seq ?? 0) - Number(a.seq ?? 0);
const listDeals = async (tx: Tx) => (await tx.list(NETWORK_DEALS)).sort(newestFirst);

const centerRules = networkCenterRules;
const oemRules = networkOemRules;

/** The OEM plan: rev, any other value reads as seat. */
const readPlan = (v: unknown) => (v === 'rev' ? 'rev' : 'seat');
const oemOf = (d: Doc | null) => ({
  brand: typeof d?.brand === 'string' ? d.brand : '',
  logo: typeof d?.logo === 'string' ? d.logo : '',
  domain: typeof d?.domain === 'string' ? d.domain : '',
  plan: readPlan(d?.plan),
});

const nonBlank = (v: string) => v.trim() !== '';
/** The deal's rate as the deal route stores it: its text rule, then read as a whole number (else 400). */
const readDealRate = (v: unknown) => readRate(dealFields.rate.zod.parse(v));

/**
 * Pushed network deals pass the deal route's rules: a known direction, texts the route would neither clip nor
 * replace by their defaults, units a whole number > 0, a whole-number rate; seq and created are the server's.
 */
export const networkDealSchema = collectionSchema(
  NETWORK_DEALS,
  {
    dir: dealFields.dir,
    partner: storedField(dealFields.partner),
    kind: storedField(dealFields.kind),
    period: storedField(dealFields.period),
    units: ruleField(readUnits),
    rate: ruleField(readDealRate),
    status: storedField(dealFields.status, (v) => v !== '' && v === v.trim(), 'status must be a trimmed, non-empty text'),
  },
  { seq: json(z.number().int().positive()), created: stamp() },
);

/** Pushed centers pass the center route's rules (a non-blank name, lists of trimmed names, figures ≥ 0); updated is the server's stamp. */
export const centerSchema = collectionSchema(
  CENTERS,
  {
    name: json(centerRules.name.refine(nonBlank, 'name required')),
    region: json(centerRules.region),
    mdm: json(centerRules.mdm),
    slots: json(centerRules.slots),
    shelf: json(centerRules.shelf),
    rate: json(centerRules.rate),
    certs: json(centerRules.certs),
  },
  { updated: stamp() },
);

/** The OEM config record as the OEM route stores it; updated is the server's stamp. */
export const networkSchema = collectionSchema(
  NETWORK,
  { brand: json(oemRules.brand), logo: json(oemRules.logo), domain: json(oemRules.domain), plan: ruleField(readPlan) },
  { updated: stamp() },
);

export const networkRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/network/deals',
    response: networkResponses.deals,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ deals: (await app.store.list(ws, NETWORK_DEALS)).sort(newestFirst) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/deal',
    response: networkResponses.deal,
    auth: 'sales:edit',
    body: dealBody,
    handler: async ({ app, ws, body }) => {
      const units = readUnits(body.units);
      const rate = readRate(body.rate);
      return app.store.transact(ws, async (tx) => {
        const { n: seq } = await issueNumber(tx, DEAL_NUMBERS);
        const deal = {
          id: randomKey('nd-', 4),
          seq,
          dir: body.dir,
          partner: body.partner,
          kind: body.kind,
          units,
          period: body.period,
          rate,
          status: body.status?.trim() || STATUS_BY_DIR[body.dir],
          created: Date.now(),
        };
        await tx.put(NETWORK_DEALS, deal.id, deal);
        return { deal, deals: await listDeals(tx) };
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/network/centers',
    response: networkResponses.centers,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => ({ centers: await app.store.list(ws, CENTERS) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/center',
    response: networkResponses.center,
    auth: 'mgmt:edit',
    body: centerBody,
    handler: async ({ app, ws, body }) =>
      app.store.transact(ws, async (tx) => {
        const { id: givenId, ...fields } = body;
        const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
        const existing = givenId ? await tx.get(CENTERS, givenId) : null;
        let center: Doc;
        if (existing && givenId) {
          if (present.name !== undefined && !String(present.name).trim()) throw badRequest('name required', { message: 'センター名(name)を入力してください' });
          center = (await tx.patch(CENTERS, givenId, { ...present, updated: Date.now() })) ?? existing;
        } else {
          const name = String(present.name ?? '').trim();
          if (!name) throw badRequest('name required', { message: 'センター名(name)を入力してください' });
          const id = randomKey('c-', 4);
          center = await tx.put(CENTERS, id, { id, name, region: String(present.region ?? '') || '—', mdm: present.mdm ?? [], slots: present.slots ?? 0, shelf: present.shelf ?? 0, rate: present.rate ?? 0, certs: present.certs ?? [] });
        }
        return { center, centers: await tx.list(CENTERS) };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/center/:id/delete',
    response: networkResponses.removeCenter,
    auth: 'mgmt:edit',
    params: centerParams,
    handler: async ({ app, ws, params }) =>
      app.store.transact(ws, async (tx) => {
        if (!(await tx.remove(CENTERS, params.id))) throw notFound('center not found');
        return { id: params.id, centers: await tx.list(CENTERS) };
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/network/oem',
    response: networkResponses.oem,
    auth: 'settings:view',
    handler: async ({ app, ws }) => ({ oem: oemOf(await app.store.get(ws, NETWORK, OEM_ID)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/oem',
    response: networkResponses.oem,
    auth: 'settings:edit',
    body: oemBody,
    handler: async ({ app, ws, body }) => {
      const oem = { brand: body.brand ?? '', logo: body.logo ?? '', domain: body.domain ?? '', plan: readPlan(body.plan) };
      await app.store.transact(ws, (tx) => tx.put(NETWORK, OEM_ID, { id: OEM_ID, ...oem, updated: Date.now() }));
      return { oem };
    },
  }),
];
