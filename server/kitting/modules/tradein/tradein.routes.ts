import { dateJa, jstDate, jstYear } from '../../../../shared/dates';
import { randomKey } from '../../../core/ids';
import { defineRoute, type RouteDef } from '../../http/define-route';
import { notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import {
  BUYBACKS,
  buybackFigures,
  buybackRules,
  readItems,
  RECEIPTS,
  RECEIPT_NUMBERS,
  receiptRules,
  REFURB_STOCK,
  stockRules,
} from './tradein.service';
import { tradeinResponses } from '../../../../shared/api/contracts/backoffice';
import { tradeinRequests } from '../../../../shared/api/contracts/backoffice-requests';

const { params: idParams } = tradeinRequests;

/** POST …/{id}/delete for one trade-in collection. */
function deleteRoute(path: string, coll: string, error: string): RouteDef {
  return defineRoute({
    method: 'post',
    path: `${path}/:id/delete`,
    response: tradeinResponses.remove,
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
    response: tradeinResponses.view,
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
    response: tradeinResponses.buyback,
    auth: 'sales:edit',
    body: tradeinRequests.buyback,
    handler: async ({ ws, app, body }) => {
      const r = buybackRules;
      const base = { model: r.model(body.model), cust: r.cust(body.cust), grade: r.grade(body.grade), bat: r.bat(body.bat), offer: r.offer(body.offer), resell: r.resell(body.resell) };
      const now = Date.now();
      const doc: Doc = { id: randomKey('BB-', 4), date: jstDate(now), ...base, ...buybackFigures(base), imei: r.imei(body.imei), note: r.note(body.note), ts: now };
      return { buyback: await app.store.transact(ws, (tx) => tx.put(BUYBACKS, String(doc.id), doc)) };
    },
  }),
  deleteRoute('/api/tradein/buyback', BUYBACKS, 'buyback not found'),
  defineRoute({
    method: 'post',
    path: '/api/tradein/inventory',
    response: tradeinResponses.stock,
    auth: 'sales:edit',
    body: tradeinRequests.stock,
    handler: async ({ ws, app, body }) => {
      const r = stockRules;
      const cost = r.cost(body.cost);
      const ask = r.ask(body.ask);
      const doc: Doc = { id: randomKey('RF-', 4), model: r.model(body.model), grade: r.grade(body.grade), cost, ask, margin: ask - cost, note: r.note(body.note), ts: Date.now() };
      return { stock: await app.store.transact(ws, (tx) => tx.put(REFURB_STOCK, String(doc.id), doc)) };
    },
  }),
  deleteRoute('/api/tradein/inventory', REFURB_STOCK, 'stock not found'),
  defineRoute({
    method: 'post',
    path: '/api/tradein/receipt',
    response: tradeinResponses.receipt,
    auth: 'sales:edit',
    body: tradeinRequests.receipt,
    handler: async ({ ws, app, body }) => {
      const cust = receiptRules.cust(body.cust);
      const { items, total } = readItems(body.items);
      const receipt = await app.store.transact(ws, async (tx) => {
        const now = Date.now();
        const year = jstYear(now);
        const no = (await issueNumber(tx, RECEIPT_NUMBERS, String(year))).value;
        const date = jstDate(now);
        return tx.create(RECEIPTS, no, { no, id: no, date, dateJa: dateJa(date), cust, person: receiptRules.person(body.person), items, total, note: receiptRules.note(body.note), ts: now });
      });
      return { receipt };
    },
  }),
  deleteRoute('/api/tradein/receipt', RECEIPTS, 'receipt not found'),
];
