import { dateJa, jstDate } from '../../../../shared/dates';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import { builtInProducts, customProductsOf, ORDER_NUMBERS, orderEditRules, orderTotals, productRules, readLines, STORE_ORDERS, STORE_PRODUCTS } from './store-orders.service';
import { storeResponses } from '../../../../shared/api/contracts/backoffice';
import { storeRequests } from '../../../../shared/api/contracts/backoffice-requests';

const { params: idParams } = storeRequests;
const orderNotFound = () => notFound('order not found', { message: '注文が見つかりません' });


export const storeOrderRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/store/catalog',
    response: storeResponses.catalog,
    auth: 'sales:view',
    handler: async ({ app, ws }) => {
      const catalog = [...builtInProducts(), ...(await app.store.list(ws, STORE_PRODUCTS))];
      return { catalog, cats: [...new Set(catalog.map((p) => String(p.cat ?? '')).filter(Boolean))] };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/store/orders',
    response: storeResponses.orders,
    auth: 'sales:view',
    handler: async ({ app, ws }) => {
      const orders = await app.store.list(ws, STORE_ORDERS, { reverse: true });
      return { orders, count: orders.length };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/store/order',
    response: storeResponses.order,
    auth: 'sales:edit',
    body: storeRequests.order,
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
          cust: orderEditRules.cust(body.cust),
          job: orderEditRules.job(body.job),
          dest: orderEditRules.dest(body.dest),
          lines,
          ...orderTotals(lines),
          status: '確定',
          created: now,
        };
        return tx.create(STORE_ORDERS, id, doc);
      });
      return { order };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/store/order/:id',
    response: storeResponses.order,
    auth: 'sales:edit',
    params: idParams,
    body: storeRequests.editOrder,
    handler: async ({ app, ws, params, body }) => {
      const patch: Doc = {};
      for (const [k, read] of Object.entries(orderEditRules)) if (body[k] !== undefined && body[k] !== null) patch[k] = read(body[k]);
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
    response: storeResponses.remove,
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
    response: storeResponses.product,
    auth: 'sales:edit',
    body: storeRequests.product,
    handler: async ({ app, ws, body }) => {
      const p = productRules;
      const product: Doc = {
        id: randomKey('cp-', 4),
        name: p.name(body.name),
        cat: p.cat(body.cat),
        ic: p.ic(body.ic),
        price: p.price(body.price),
        cost: p.cost(body.cost),
        note: p.note(body.note),
        custom: true,
        created: Date.now(),
      };
      return { product: await app.store.transact(ws, (tx) => tx.put(STORE_PRODUCTS, String(product.id), product)) };
    },
  }),
];
