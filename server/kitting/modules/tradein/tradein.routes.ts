import { z } from 'zod';
import { jstDate, jstYear } from '../../../../shared/dates';
import { randomId } from '../../../core/http/crud';
import { defineRoute, type RouteDef } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../../core/store/series';
import type { Doc } from '../../../core/store/types';
import {
  BUYBACKS,
  buybackFigures,
  readBat,
  readGrade,
  readItems,
  readModel,
  RECEIPTS,
  RECEIPT_NUMBERS,
  REFURB_STOCK,
  text,
  yen,
} from './tradein.service';

const idParams = z.object({ id: z.string().min(1).max(200) });
const anyObject = z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' });
const dateJa = (d: string) => `${d.slice(0, 4)}年${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;

/** POST …/{id}/delete for one trade-in collection. */
function deleteRoute(path: string, coll: string, error: string): RouteDef {
  return defineRoute({
    method: 'post',
    path: `${path}/:id/delete`,
    auth: 'sales:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      await app.store.transact(ws, async (tx) => {
        if (!(await tx.remove(coll, params.id))) throw notFound(error);
      });
      return { id: params.id };
    },
  });
}

export const tradeinRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/tradein',
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({
      buybacks: await app.store.list(ws, BUYBACKS, { reverse: true }),
      inventory: await app.store.list(ws, REFURB_STOCK, { reverse: true }),
      receipts: await app.store.list(ws, RECEIPTS, { reverse: true }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/tradein/buyback',
    auth: 'sales:edit',
    body: anyObject,
    handler: async ({ ws, app, body }) => {
      const base = {
        model: readModel(body.model),
        cust: text(body.cust, 120),
        grade: readGrade(body.grade),
        bat: readBat(body.bat),
        offer: yen(body.offer, 'offer', true),
        resell: yen(body.resell, 'resell', true),
      };
      const now = Date.now();
      const doc: Doc = { id: randomId('BB-'), date: jstDate(now), ...base, ...buybackFigures(base), imei: text(body.imei, 40), note: text(body.note, 300), ts: now };
      return { buyback: await app.store.transact(ws, (tx) => tx.put(BUYBACKS, String(doc.id), doc)) };
    },
  }),
  deleteRoute('/api/tradein/buyback', BUYBACKS, 'buyback not found'),
  defineRoute({
    method: 'post',
    path: '/api/tradein/inventory',
    auth: 'sales:edit',
    body: anyObject,
    handler: async ({ ws, app, body }) => {
      const cost = yen(body.cost, 'cost');
      const ask = yen(body.ask, 'ask');
      const doc: Doc = { id: randomId('RF-'), model: readModel(body.model), grade: readGrade(body.grade), cost, ask, margin: ask - cost, note: text(body.note, 300), ts: Date.now() };
      return { stock: await app.store.transact(ws, (tx) => tx.put(REFURB_STOCK, String(doc.id), doc)) };
    },
  }),
  deleteRoute('/api/tradein/inventory', REFURB_STOCK, 'stock not found'),
  defineRoute({
    method: 'post',
    path: '/api/tradein/receipt',
    auth: 'sales:edit',
    body: anyObject,
    handler: async ({ ws, app, body }) => {
      const cust = text(body.cust, 120);
      if (!cust) throw badRequest('cust required', { message: '顧客名(cust)は必須です' });
      const { items, total } = readItems(body.items);
      const receipt = await app.store.transact(ws, async (tx) => {
        const now = Date.now();
        const year = jstYear(now);
        const no = (await issueNumber(tx, RECEIPT_NUMBERS, String(year))).value;
        const date = jstDate(now);
        return tx.put(RECEIPTS, no, { no, id: no, date, dateJa: dateJa(date), cust, person: text(body.person, 60), items, total, note: text(body.note, 300), ts: now });
      });
      return { receipt };
    },
  }),
  deleteRoute('/api/tradein/receipt', RECEIPTS, 'receipt not found'),
];
