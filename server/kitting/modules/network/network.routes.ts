import { z } from 'zod';
import { clip, createShape, json, oneOf, text } from '../../../../shared/fields';
import { randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { declareSeries, issueNumber } from '../../../core/store/series';
import type { Doc, Tx } from '../../../core/store/types';

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

const DIRS = ['provide', 'accept', 'request'] as const;
const STATUS_BY_DIR: Record<(typeof DIRS)[number], string> = { provide: '募集中', accept: '対応中', request: '承認待ち' };

const dealBody = createShape({
  units: json(z.unknown()).optional(),
  dir: oneOf(DIRS, 'provide'),
  partner: text(120).default('ネットワーク公開'),
  kind: text(40).default('キッティング枠'),
  period: text(40).default('—'),
  rate: text(20).optional(),
  status: text(24).optional(),
});

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

const strList = z
  .array(z.union([z.string(), z.number()]), { error: 'must be an array of strings' })
  .max(50)
  .transform((a) => a.map((v) => clip(String(v).trim(), 40)).filter(Boolean));
const nonNeg = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: 'must be a number ≥ 0' });
    return z.NEVER;
  }
  return n;
});
const centerBody = z.object(
  {
    id: z.string().max(60).nullish(),
    name: text(120).zod.nullish(),
    region: text(60).zod.nullish(),
    mdm: strList.nullish(),
    slots: nonNeg.nullish(),
    shelf: nonNeg.nullish(),
    rate: nonNeg.nullish(),
    certs: strList.nullish(),
  },
  { error: 'body must be a JSON object' },
);

const oemBody = z.object({ brand: text(24).zod.nullish(), logo: text(2).zod.nullish(), domain: text(48).zod.nullish(), plan: z.unknown().optional() }, { error: 'body must be a JSON object' });
const oemOf = (d: Doc | null) => ({
  brand: typeof d?.brand === 'string' ? d.brand : '',
  logo: typeof d?.logo === 'string' ? d.logo : '',
  domain: typeof d?.domain === 'string' ? d.domain : '',
  plan: d?.plan === 'rev' ? 'rev' : 'seat',
});

export const networkRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/network/deals',
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ deals: (await app.store.list(ws, NETWORK_DEALS)).sort(newestFirst) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/deal',
    auth: 'sales:edit',
    body: dealBody,
    handler: async ({ app, ws, body }) => {
      const units = readUnits(body.units);
      const rate = readRate(body.rate);
      return app.store.transact(ws, async (tx) => {
        const { n: seq } = await issueNumber(tx, DEAL_NUMBERS);
        const deal = {
          id: randomId('nd-'),
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
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => ({ centers: await app.store.list(ws, CENTERS) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/center',
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
          const id = randomId('c-');
          center = await tx.put(CENTERS, id, { id, name, region: String(present.region ?? '') || '—', mdm: present.mdm ?? [], slots: present.slots ?? 0, shelf: present.shelf ?? 0, rate: present.rate ?? 0, certs: present.certs ?? [] });
        }
        return { center, centers: await tx.list(CENTERS) };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/center/:id/delete',
    auth: 'mgmt:edit',
    params: z.object({ id: z.string().min(1).max(60) }),
    handler: async ({ app, ws, params }) =>
      app.store.transact(ws, async (tx) => {
        if (!(await tx.remove(CENTERS, params.id))) throw notFound('center not found');
        return { id: params.id, centers: await tx.list(CENTERS) };
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/network/oem',
    auth: 'settings:view',
    handler: async ({ app, ws }) => ({ oem: oemOf(await app.store.get(ws, NETWORK, OEM_ID)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/oem',
    auth: 'settings:edit',
    body: oemBody,
    handler: async ({ app, ws, body }) => {
      const oem = { brand: body.brand ?? '', logo: body.logo ?? '', domain: body.domain ?? '', plan: body.plan === 'rev' ? 'rev' : 'seat' };
      await app.store.transact(ws, (tx) => tx.put(NETWORK, OEM_ID, { id: OEM_ID, ...oem, updated: Date.now() }));
      return { oem };
    },
  }),
];
