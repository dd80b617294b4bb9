import { z } from 'zod';
import { jstDate } from '../../../../shared/dates';
import { randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../../core/store/series';
import type { Doc } from '../../../core/store/types';
import { builtInProducts, customProductsOf, ORDER_NUMBERS, orderTotals, readLines, STORE_ORDERS, STORE_PRODUCTS, text, yen } from './store-orders.service';

const idParams = z.object({ id: z.string().min(1).max(200) });
const anyObject = z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' });
const orderNotFound = () => notFound('order not found', { message: '注文が見つかりません' });

const dateJa = (d: string) => `${d.slice(0, 4)}年${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;

export const storeOrderRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/store/catalog',
    auth: 'sales:view',
    handler: async ({ app, ws }) => {
      const catalog = [...builtInProducts(), ...(await app.store.list(ws, STORE_PRODUCTS))];
      return { catalog, cats: [...new Set(catalog.map((p) => String(p.cat ?? '')).filter(Boolean))] };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/store/orders',
    auth: 'sales:view',
    handler: async ({ app, ws }) => {
      const orders = await app.store.list(ws, STORE_ORDERS, { reverse: true });
      return { orders, count: orders.length };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/store/order',
    auth: 'sales:edit',
    body: anyObject,
    handler: async ({ app, ws, body }) => {
      const order = await app.store.transact(ws, async (tx) => {
        const lines = readLines(body.lines, [...builtInProducts(), ...(await customProductsOf(tx, body.lines))]);
        const now = Date.now();
        const date = jstDate(now);
        const yyyymm = date.slice(0, 4) + date.slice(5, 7);
        const id = (await issueNumber(tx, ORDER_NUMBERS, yyyymm)).value;
        const doc: Doc = {
          id,
          date,
          dateStr: dateJa(date),
          cust: text(body.cust, 120),
          job: text(body.job, 120),
          dest: text(body.dest, 300),
          lines,
          ...orderTotals(lines),
          status: '確定',
          created: now,
        };
        return tx.put(STORE_ORDERS, id, doc);
      });
      return { order };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/store/order/:id',
    auth: 'sales:edit',
    params: idParams,
    body: anyObject,
    handler: async ({ app, ws, params, body }) => {
      const patch: Doc = {};
      for (const [k, n] of [['status', 20], ['cust', 120], ['job', 120], ['dest', 300]] as const) {
        if (body[k] !== undefined && body[k] !== null) patch[k] = text(body[k], n);
      }
      if (patch.status === '') throw badRequest('status required', { message: 'status を空にはできません' });
      const order = await app.store.transact(ws, async (tx) => {
        if (!(await tx.get(STORE_ORDERS, params.id))) throw orderNotFound();
        return tx.patch(STORE_ORDERS, params.id, { ...patch, updated: Date.now() });
      });
      return { order };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/store/order/:id/delete',
    auth: 'sales:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      await app.store.transact(ws, async (tx) => {
        if (!(await tx.remove(STORE_ORDERS, params.id))) throw orderNotFound();
      });
      return { id: params.id };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/store/product',
    auth: 'sales:edit',
    body: anyObject,
    handler: async ({ app, ws, body }) => {
      const name = text(body.name, 120);
      if (!name) throw badRequest('name required', { message: '商品名(name)は必須です' });
      const product: Doc = {
        id: randomId('cp-'),
        name,
        cat: text(body.cat, 40) || 'その他',
        ic: text(body.ic, 4) || '📦',
        price: yen(body.price, 'price', null),
        cost: yen(body.cost, 'cost', 0),
        note: text(body.note, 300),
        custom: true,
        created: Date.now(),
      };
      return { product: await app.store.transact(ws, (tx) => tx.put(STORE_PRODUCTS, String(product.id), product)) };
    },
  }),
];
