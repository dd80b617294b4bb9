/** Partner network: deals, centres and the OEM page, with the rules the routes and the push check store them by. */
import { z } from 'zod';
import { json } from '../../../../shared/fields';
import { collectionSchema, ruleField, stamp, storedField } from '../../http/collection-schema';
import { badRequest } from '../../../core/errors';
import { declareSeries } from '../../store/series';
import type { Doc, Tx } from '../../store/types';
import { NETWORK_DIRS, networkCenterRules, networkDealFields, networkOemRules, networkRequests } from '../../../../shared/api/contracts/workspace';

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
export const STATUS_BY_DIR: Record<(typeof DIRS)[number], string> = { provide: '募集中', accept: '対応中', request: '承認待ち' };

const dealFields = networkDealFields;
export const { deal: dealBody, center: centerBody, oem: oemBody, centerParams } = networkRequests;

export function readUnits(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n <= 0) throw badRequest('units required', { message: '台数(units)は1以上の整数で指定してください' });
  return n;
}

export function readRate(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw badRequest('invalid rate', { message: '単価(rate)は数値で指定してください' });
  return Math.round(n);
}

export const newestFirst = (a: Doc, b: Doc) => Number(b.created ?? 0) - Number(a.created ?? 0) || Number(b.seq ?? 0) - Number(a.seq ?? 0);
export const listDeals = async (tx: Tx) => (await tx.list(NETWORK_DEALS)).sort(newestFirst);

const centerRules = networkCenterRules;
const oemRules = networkOemRules;

/** The OEM plan: rev, any other value reads as seat. */
export const readPlan = (v: unknown) => (v === 'rev' ? 'rev' : 'seat');
export const oemOf = (d: Doc | null) => ({
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
