import { jstDate, jstYymm } from '../../../../shared/dates';
import { limitHeavy, pdfRenderers } from '../documents/pdf-pool';
import { defineRoute, Reply } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { readCompany, readCompanyTx } from '../settings/settings.service';
import { revisionOf } from './quote-pdf';
import type { AppContext } from '../../context';
import { issueNumber } from '../../store/series';
import type { Tx } from '../../store/types';
import { collectionSchema, derivedDate, derivedText, ruleFields, stamp } from '../../http/collection-schema';
import { BOM, quoteCsv, quoteDocument } from './quote-export';
import {
  buildQuote,
  catalog,
  DEFAULT_CUST,
  deviceCountOf,
  DRAFT_ID,
  findCustomer,
  inconsistent,
  MAX_Q,
  QUOTE_DRAFTS,
  quoteRules,
  draftId,
  QUOTE_NUMBERS,
  QUOTES,
  readPattern,
  validateQuote,
  withTotals,
  type Quote,
} from './quote-model';
import { quoteRequests, quoteResponses } from '../../../../shared/api/contracts/quotes';

/** Pushed quotes and the quote draft pass the rules the quote routes store them by. */
const quoteDerived = { createdAt: stamp(), updatedAt: stamp(), issuedAt: stamp(), revisionOf: derivedText(120), supersededBy: derivedText(120), validUntil: derivedDate() };
export const quoteSchema = collectionSchema(QUOTES, ruleFields(quoteRules), quoteDerived);
/** The draft (key "current") keeps the id the quote will be saved under, or null. */
export const quoteDraftSchema = collectionSchema(QUOTE_DRAFTS, ruleFields({ ...quoteRules, id: draftId }), quoteDerived, '');

const { body: quoteBody, fresh: newQuery, params: idParams } = quoteRequests;

const quoteNotFound = () => notFound('not_found', { message: '見積が見つかりません' });
const quoteLocked = (id: string) => conflict('quote issued', { id, message: `見積 ${id} は発行済みのため変更できません。「改訂版を作成」で新しい版を作ってください` });

async function loadQuote(app: AppContext, ws: string, id: string): Promise<Quote> {
  const q = await app.store.get<Quote>(ws, QUOTES, id);
  if (!q) throw quoteNotFound();
  return q;
}

const reader = (app: AppContext, ws: string): Pick<Tx, 'get' | 'find'> => ({
  get: (coll, id) => app.store.get(ws, coll, id),
  find: (coll, field, value) => app.store.find(ws, coll, field, value),
});

/** A stored quote is re-checked before it leaves as CSV or document. */
async function exportable(app: AppContext, ws: string, id: string) {
  const q = await loadQuote(app, ws, id);
  const totals = await validateQuote(reader(app, ws), q);
  return quoteDocument(q, totals);
}

/** A quote made out to a known customer but without a name carries the customer's name. */
async function fillCustomerName(tx: Pick<Tx, 'get' | 'find'>, q: Quote): Promise<void> {
  const c = await findCustomer(tx, q.custId);
  if (c && q.cust === DEFAULT_CUST && typeof c.name === 'string') q.cust = c.name;
}

export const quoteRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/quote/catalog',
    response: quoteResponses.catalog,
    auth: 'sales:view',
    handler: () => ({ catalog: catalog() }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/quote/new',
    response: quoteResponses.fresh,
    auth: 'sales:view',
    query: newQuery,
    handler: async ({ app, ws, query }) => {
      const custId = query.custId?.trim() || null;
      const custName = query.cust?.trim() || '';
      if (!custId && !custName) throw badRequest('customer_required', { message: '顧客（custId または cust）を指定してください' });
      let name = custName;
      if (custId) {
        const c = await app.store.get(ws, 'customers', custId);
        if (!c) throw notFound('customer_not_found', { message: `顧客 ${custId} が見つかりません` });
        name = String(c.name ?? '');
      }
      let qty = await deviceCountOf(() => app.store.list(ws, 'devices'), name);
      if (query.devices !== undefined && query.devices.trim() !== '') {
        const n = Number(query.devices);
        // Above MAX_Q the per-device lines could not be stored as shown (a saved line keeps at most MAX_Q).
        if (!Number.isFinite(n) || n > MAX_Q) throw badRequest('invalid devices', { message: `台数(devices)は0〜${MAX_Q}の数値で指定してください` });
        qty = Math.max(0, Math.floor(n));
      }
      const pattern = readPattern(query.pattern);
      const cat = catalog();
      const lines = (list: typeof cat.initial) =>
        list.filter((l) => l.patterns.includes(pattern)).map((l) => ({ n: l.n, q: l.per === 'device' ? qty : l.q, p: l.p, d: l.d }));
      const quote = buildQuote({ custId, cust: name, pattern, qty, ini: [], run: [] }, null);
      quote.ini = lines(cat.initial);
      quote.run = lines(cat.running);
      return { quote: withTotals(quote) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/quotes',
    response: quoteResponses.list,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ quotes: (await app.store.list<Quote>(ws, QUOTES, { reverse: true })).map(withTotals) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/quote/draft',
    response: quoteResponses.draft,
    auth: 'sales:view',
    handler: async ({ app, ws }) => {
      const d = await app.store.get<Quote>(ws, QUOTE_DRAFTS, DRAFT_ID);
      return { draft: d ? withTotals(d) : null };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/quote/draft',
    response: quoteResponses.saveDraft,
    auth: 'sales:edit',
    body: quoteBody,
    handler: async ({ app, ws, body }) => {
      const draft = await app.store.transact(ws, async (tx) => {
        const q = buildQuote(body, null);
        q.id = draftId(body.id);
        await validateQuote(tx, q, body.totals);
        await fillCustomerName(tx, q);
        q.updatedAt = Date.now();
        return tx.put(QUOTE_DRAFTS, DRAFT_ID, q);
      });
      return { draft: withTotals(draft) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/quote/draft/clear',
    response: quoteResponses.clearDraft,
    auth: 'sales:edit',
    handler: async ({ app, ws }) => {
      await app.store.transact(ws, (tx) => tx.remove(QUOTE_DRAFTS, DRAFT_ID));
      return {};
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/quote/preview',
    response: quoteResponses.preview,
    auth: 'sales:view',
    body: quoteBody,
    handler: async ({ app, ws, body }) => {
      const q = buildQuote(body, null);
      q.id = draftId(body.id);
      const totals = await validateQuote(reader(app, ws), q, body.totals);
      const document = quoteDocument(q, totals);
      return { quote: { ...q, totals }, csv: quoteCsv(document), document };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/quote/:id',
    response: quoteResponses.one,
    auth: 'sales:view',
    params: idParams,
    handler: async ({ app, ws, params }) => ({ quote: withTotals(await loadQuote(app, ws, params.id)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/quote',
    response: quoteResponses.one,
    auth: 'sales:edit',
    body: quoteBody,
    handler: async ({ app, ws, body }) => {
      const quote = await app.store.transact(ws, async (tx) => {
        const q = buildQuote(body, null);
        await validateQuote(tx, q, body.totals);
        await fillCustomerName(tx, q);
        const yymm = jstYymm();
        q.id = (await issueNumber(tx, QUOTE_NUMBERS, yymm)).value;
        const now = Date.now();
        q.createdAt = now;
        q.updatedAt = now;
        q.issuedAt = null;
        return tx.create(QUOTES, q.id, q);
      });
      return { quote: withTotals(quote) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/quote/:id',
    response: quoteResponses.one,
    auth: 'sales:edit',
    params: idParams,
    body: quoteBody,
    handler: async ({ app, ws, params, body }) => {
      const quote = await app.store.transact(ws, async (tx) => {
        const current = await tx.get<Quote>(QUOTES, params.id);
        if (!current) throw quoteNotFound();
        // An issued quote is a document the customer holds: changes go into a new revision.
        if (typeof current.issuedAt === 'number') throw quoteLocked(params.id);
        const q = buildQuote(body, current);
        q.id = current.id;
        await validateQuote(tx, q, body.totals);
        q.updatedAt = Date.now();
        return tx.put(QUOTES, params.id, q);
      });
      return { quote: withTotals(quote) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/quote/:id/csv',
    produces: 'text/csv',
    auth: 'sales:view',
    params: idParams,
    handler: async ({ app, ws, req, params }) => {
      await limitHeavy(app, ws, req.ip);
      const doc = await exportable(app, ws, params.id);
      const name = `${doc.meta.quoteNo ?? 'quote'}.csv`;
      return new Reply(200, BOM + quoteCsv(doc), {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/quote/:id/document',
    response: quoteResponses.document,
    auth: 'sales:view',
    params: idParams,
    handler: async ({ app, ws, params }) => ({ document: await exportable(app, ws, params.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/quote/:id/pdf',
    produces: 'application/pdf',
    auth: 'sales:view',
    params: idParams,
    handler: async ({ app, ws, req, params }) => {
      await limitHeavy(app, ws, req.ip);
      const q = await loadQuote(app, ws, params.id);
      const doc = quoteDocument(q, await validateQuote(reader(app, ws), q));
      const pdf = await pdfRenderers.quote(doc, q, await readCompany(app.store, ws), revisionOf(q));
      return new Reply(200, Buffer.from(pdf), {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${String(q.id).replace(/[^\w.-]/g, '_')}.pdf"`,
        'Cache-Control': 'no-store',
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/quote/:id/revise',
    response: quoteResponses.one,
    auth: 'sales:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const quote = await app.store.transact(ws, async (tx) => {
        const current = await tx.get<Quote>(QUOTES, params.id);
        if (!current) throw quoteNotFound();
        if (typeof current.issuedAt !== 'number') throw badRequest('quote not issued', { message: '未発行の見積はそのまま編集できます' });
        const root = typeof current.revisionOf === 'string' ? current.revisionOf : String(current.id);
        const yymm = jstYymm();
        const now = Date.now();
        const { totals: _t, validUntil: _v, ...rest } = current as Quote & { totals?: unknown };
        const next: Quote = {
          ...rest,
          id: (await issueNumber(tx, QUOTE_NUMBERS, yymm)).value,
          revisionOf: root,
          rev: (typeof current.rev === 'number' ? current.rev : 1) + 1,
          supersedes: String(current.id),
          createdAt: now,
          updatedAt: now,
          issuedAt: null,
        };
        await tx.patch(QUOTES, String(current.id), { supersededBy: next.id });
        return tx.create(QUOTES, String(next.id), next);
      });
      return { quote: withTotals(quote) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/quote/:id/issue',
    response: quoteResponses.issue,
    auth: 'sales:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const { quote, totals } = await app.store.transact(ws, async (tx) => {
        const current = await tx.get<Quote>(QUOTES, params.id);
        if (!current) throw quoteNotFound();
        const totals = await validateQuote(tx, current);
        const customer = await findCustomer(tx, current.custId, current.cust);
        if (!customer) {
          throw inconsistent([{ code: 'customer_required', field: 'custId', message: '発行には登録済みの顧客が必要です' }]);
        }
        const now = Date.now();
        const issuedAt = typeof current.issuedAt === 'number' ? current.issuedAt : now;
        // 有効期限: the issue date plus the company's quoteValidDays (30 by default), fixed when first issued.
        const validUntil = typeof current.validUntil === 'string' ? current.validUntil : jstDate(issuedAt + (await readCompanyTx(tx)).quoteValidDays * 86_400_000);
        const q = await tx.patch<Quote>(QUOTES, params.id, { custId: String(customer.id), issuedAt, validUntil, updatedAt: now });
        if (!q) throw notFound('not_found');
        return { quote: q, totals };
      });
      const document = quoteDocument(quote, totals);
      return { quote: { ...quote, totals }, document, csv: quoteCsv(document) };
    },
  }),
];
