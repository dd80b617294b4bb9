import { clip } from '../../../../shared/fields';
import { jstDate } from '../../../../shared/dates';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { notFound } from '../../../core/errors';
import type { Doc } from '../../store/types';
import {
  checkTransition,
  DAAS_STATUSES,
  DAAS_QUOTES,
  DAAS_SENDS,
  DAAS_STATE,
  daasSendRules,
  daasPricing,
  daasTotals,
  daasTotalsOf,
  PORTFOLIO_CAP,
  readExpires,
  readPrice,
  readTerms,
  SEND_CAP,
  SIM_ID,
  STATUS_LABELS,
  type DaasStatus,
} from './daas.service';
import { daasResponses } from '../../../../shared/api/contracts/backoffice';
import { daasRequests } from '../../../../shared/api/contracts/backoffice-requests';

const { params: idParams } = daasRequests;
const byTsDesc = (a: Doc, b: Doc) => (Number(b.ts) || 0) - (Number(a.ts) || 0);
const quoteNotFound = () => notFound('quote not found', { message: 'DaaS見積が見つかりません' });

export const daasRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/daas',
    response: daasResponses.view,
    auth: 'sales:view',
    handler: async ({ app, ws }) => {
      const quotes = (await app.store.list(ws, DAAS_QUOTES, { reverse: true })).sort(byTsDesc);
      const sim = await app.store.get(ws, DAAS_STATE, SIM_ID);
      const sends = (await app.store.list(ws, DAAS_SENDS, { reverse: true })).sort(byTsDesc).slice(0, SEND_CAP);
      return { quotes, sim: sim ?? null, sends, totals: daasTotals(quotes) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/daas/quote',
    response: daasResponses.quote,
    auth: 'sales:edit',
    body: daasRequests.quote,
    handler: async ({ app, ws, body }) => {
      const quote = await app.store.transact(ws, async (tx) => {
        const id = typeof body.id === 'string' && body.id.trim() ? clip(body.id.trim(), 60) : null;
        const current = id ? await tx.get(DAAS_QUOTES, id) : null;
        const base = current ?? {};
        const terms = readTerms(body, base);
        const price = readPrice(body, terms.model, current && body.model === undefined ? base : {});
        const expires = readExpires(body.expires, typeof base.expires === 'string' ? base.expires : '');
        const now = Date.now();
        const status = (current?.status as DaasStatus | undefined) ?? 'draft';
        const doc: Doc = {
          ...base,
          id: id ?? randomKey('DQ-', 4),
          ...terms,
          price,
          ...daasPricing({ ...terms, price }),
          expires,
          ts: current ? (base.ts as number) : now,
          updated: now,
          status,
          statusTs: current ? base.statusTs : now,
          statusLabel: STATUS_LABELS[status],
          contracted: current ? (base.contracted ?? null) : null,
        };
        const saved = await tx.put(DAAS_QUOTES, String(doc.id), doc);
        // Only a portfolio grown past its cap is read, to drop its oldest quotes.
        if (!current && (await tx.count(DAAS_QUOTES)) > PORTFOLIO_CAP) {
          const all = (await tx.list(DAAS_QUOTES, { reverse: true })).sort(byTsDesc);
          for (const old of all.slice(PORTFOLIO_CAP)) await tx.remove(DAAS_QUOTES, String(old.id));
        }
        return saved;
      });
      return { quote };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/daas/quote/:id/status',
    response: daasResponses.status,
    auth: 'sales:edit',
    params: idParams,
    body: daasRequests.status,
    handler: async ({ app, ws, params, body }) => {
      return app.store.transact(ws, async (tx) => {
        const current = await tx.get(DAAS_QUOTES, params.id);
        if (!current) throw quoteNotFound();
        const { from, to } = checkTransition(current, body.status);
        const now = Date.now();
        const backward = DAAS_STATUSES.indexOf(to) < DAAS_STATUSES.indexOf(from);
        const fields: Doc = { status: to, statusTs: now, statusLabel: STATUS_LABELS[to], updated: now };
        if (to === 'contracted' && from !== 'contracted') fields.contracted = jstDate(now);
        if (backward) fields.contracted = null;
        const quote = await tx.patch(DAAS_QUOTES, params.id, fields);
        return { quote, from, totals: await daasTotalsOf(tx) };
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/daas/quote/:id/delete',
    response: daasResponses.remove,
    auth: 'sales:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      await app.store.transact(ws, async (tx) => {
        if (!(await tx.remove(DAAS_QUOTES, params.id))) throw quoteNotFound();
      });
      return { id: params.id };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/daas/sim',
    response: daasResponses.sim,
    auth: 'sales:edit',
    body: daasRequests.sim,
    handler: async ({ app, ws, body }) => {
      const sim = await app.store.transact(ws, async (tx) => {
        const terms = readTerms(body, (await tx.get(DAAS_STATE, SIM_ID)) ?? {});
        return tx.put(DAAS_STATE, SIM_ID, { id: SIM_ID, ...terms, updated: Date.now() });
      });
      return { sim };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/daas/send',
    response: daasResponses.send,
    auth: 'sales:edit',
    body: daasRequests.send,
    handler: async ({ app, ws, body }) => {
      const send = await app.store.transact(ws, async (tx) => {
        const q = typeof body.quoteId === 'string' ? await tx.get(DAAS_QUOTES, body.quoteId) : null;
        if (typeof body.quoteId === 'string' && !q) throw quoteNotFound();
        const r = daasSendRules;
        const entry: Doc = {
          id: randomKey('ds-', 4),
          ts: Date.now(),
          cust: r.cust(body.cust ?? q?.cust),
          channel: r.channel(body.channel),
          to: r.to(body.to),
          doc: r.doc(body.doc),
          quoteId: q ? q.id : null,
          model: q ? q.model : r.model(body.model),
          qty: q ? q.qty : r.qty(body.qty),
          mrr: q ? q.mrr : r.mrr(body.mrr),
        };
        const saved = await tx.put(DAAS_SENDS, String(entry.id), entry);
        // A capped list is trimmed locally, never synced as deletions (docs/DESIGN.md §4).
        await tx.trimLocal(DAAS_SENDS, SEND_CAP);
        return saved;
      });
      return { send };
    },
  }),
];
