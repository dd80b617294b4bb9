import { isDeepStrictEqual } from 'node:util';
import { jstDate, jstYymm } from '../../../../shared/dates';
import { limitHeavy, pdfRenderers } from '../documents/pdf-pool';
import { defineRoute, Reply } from '../../http/define-route';
import { issueNumber } from '../../store/series';
import { readCompany, readCompanyTx } from '../settings/settings.service';
import { invoiceFromQuoteRoute } from './invoice-from-quote';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { declareLookup } from '../../store/lookups';
import {
  billingSummary,
  CONTENT_FIELDS,
  INVOICES,
  INVOICE_NUMBERS,
  invoiceRules,
  linesOf,
  priced,
  type Invoice,
} from './invoices.service';
import { collectionSchema, derivedDate, derivedInt, derivedList, derivedText, ruleFields, stamp } from '../../http/collection-schema';
import { invoiceRequests, invoiceResponses } from '../../../../shared/api/contracts/quotes';

/** A month's invoices are found by their month (issuing drafts never reads every invoice). */
const INVOICES_BY_MONTH = declareLookup(INVOICES, 'month');

/** Pushed invoices pass the rules of the invoice routes; created, updated and issuedAt are the server's stamps. */
export const invoiceSchema = collectionSchema(INVOICES, ruleFields(invoiceRules), {
  created: stamp(),
  updated: stamp(),
  issuedAt: stamp(),
  taxes: derivedList(2),
  subtotal: derivedInt(-Number.MAX_SAFE_INTEGER),
  tax: derivedInt(),
  date: derivedDate(),
  quoteId: derivedText(120),
});

const { params: idParams } = invoiceRequests;
const given = (v: unknown) => v !== undefined && v !== null;

/** Newest id first: INV-2611-002 before INV-2611-001 before INV-2610-009. */
const newestFirst = (a: Invoice, b: Invoice) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const amountMismatch = (amount: number) =>
  badRequest('invalid amount', { message: `金額(amount)は明細から計算されます（明細の合計 ${amount.toLocaleString('ja-JP')}円と一致しません）`, amount });

const invoiceLocked = (id: string, fields: string[]) =>
  conflict('invoice issued', {
    id,
    fields,
    message: `請求書 ${id} は発行済みのため内容を変更できません（状態の変更のみ可能）。訂正する場合は状態を「下書き」に戻してから編集し、再発行してください`,
  });

/**
 * The figures of a draft whose lines, basis or amount change. New lines (or basis) recompute everything and
 * an amount sent with them must agree; an amount alone replaces the price of an invoice that is one line of
 * quantity 1 (one made from an amount), and is refused for an invoice with real lines.
 */
function refigure(current: Invoice, patch: Partial<Invoice>): Partial<Invoice> {
  const own = linesOf(current);
  const basis = patch.taxBasis ?? current.taxBasis ?? own.basis ?? '税込';
  if (patch.lines !== undefined || patch.taxBasis !== undefined) {
    const f = priced(patch.lines ?? own.lines, basis);
    if (patch.amount !== undefined && patch.amount !== f.amount) throw amountMismatch(f.amount);
    return f;
  }
  const single = own.lines.length === 1 && own.lines[0].quantity === 1 && basis === '税込';
  if (!single) {
    if (patch.amount === undefined) return {};
    throw amountMismatch(priced(own.lines, basis).amount);
  }
  const line = { ...own.lines[0], description: patch.desc ?? current.desc ?? own.lines[0].description, unitPrice: patch.amount ?? current.amount };
  return priced([line], '税込');
}

export const invoiceRoutes = [
  invoiceFromQuoteRoute,
  defineRoute({
    method: 'get',
    path: '/api/invoices',
    response: invoiceResponses.list,
    auth: 'sales:view',
    handler: async ({ app, ws }) => {
      const invoices = (await app.store.list<Invoice>(ws, INVOICES)).sort(newestFirst);
      return { invoices, count: invoices.length };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/invoice',
    response: invoiceResponses.one,
    auth: 'sales:edit',
    body: invoiceRequests.create,
    handler: async ({ app, ws, body }) => {
      const cust = invoiceRules.cust(body.cust);
      const lines = given(body.lines) ? invoiceRules.lines(body.lines) : null;
      if (!lines?.length && !given(body.amount)) throw badRequest('invalid amount', { message: '金額(amount)か明細(lines)は必須です' });
      const amount = given(body.amount) ? invoiceRules.amount(body.amount) : null;
      const month = given(body.month) && body.month !== '' ? invoiceRules.month(body.month) : jstYymm();
      const status = given(body.status) ? invoiceRules.status(body.status) : 'draft';
      const recurring = given(body.recurring) ? invoiceRules.recurring(body.recurring) : false;
      const desc = invoiceRules.desc(body.desc);
      const due = invoiceRules.due(body.due);
      const invoice = await app.store.transact(ws, async (tx) => {
        // With lines the figures come from them, stated on the company's basis unless the caller names one;
        // an amount alone is one line of the description, that amount being the total (税込, 10 %).
        const basis = given(body.taxBasis) ? invoiceRules.taxBasis(body.taxBasis) : (await readCompanyTx(tx)).taxBasis;
        const figures = lines?.length ? priced(lines, basis) : priced(linesOf({ desc, amount: amount ?? 0 }).lines, '税込');
        if (amount !== null && amount !== figures.amount) throw amountMismatch(figures.amount);
        const custom = typeof body.id === 'string' ? body.id.trim() : '';
        const useCustom = /^INV-[\w-]{1,36}$/.test(custom) && !(await tx.get(INVOICES, custom));
        let id = custom;
        // A custom id may already hold a number of the month's series: skip it, never overwrite an invoice.
        if (!useCustom) {
          do id = (await issueNumber(tx, INVOICE_NUMBERS, month)).value;
          while (await tx.get(INVOICES, id));
        }
        const now = Date.now();
        const doc: Invoice = { id, cust, month, desc, due, status, recurring, ...figures, date: jstDate(now), created: now, updated: now };
        return tx.create(INVOICES, id, doc);
      });
      return { invoice };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/invoices/issue',
    response: invoiceResponses.issue,
    auth: 'sales:edit',
    body: invoiceRequests.issue,
    handler: async ({ app, ws, body }) => {
      const month = given(body.month) && body.month !== '' ? invoiceRules.month(body.month) : jstYymm();
      const count = await app.store.transact(ws, async (tx) => {
        const drafts = (await tx.find<Invoice>(INVOICES_BY_MONTH.coll, INVOICES_BY_MONTH.field, month)).filter((i) => i.status === 'draft');
        const now = Date.now();
        for (const i of drafts) await tx.patch(INVOICES, i.id, { status: 'issued', issuedAt: now, updated: now });
        return drafts.length;
      });
      return { count, month };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/invoice/:id',
    response: invoiceResponses.one,
    auth: 'sales:edit',
    params: idParams,
    body: invoiceRequests.patch,
    handler: async ({ app, ws, params, body }) => {
      const patch: Partial<Invoice> = {};
      if (given(body.status)) patch.status = invoiceRules.status(body.status);
      if (given(body.cust)) patch.cust = invoiceRules.cust(body.cust);
      if (given(body.desc)) patch.desc = invoiceRules.desc(body.desc);
      if (given(body.month)) patch.month = invoiceRules.month(body.month);
      if (given(body.due)) patch.due = invoiceRules.due(body.due);
      if (given(body.amount)) patch.amount = invoiceRules.amount(body.amount);
      if (given(body.recurring)) patch.recurring = invoiceRules.recurring(body.recurring);
      if (given(body.lines)) patch.lines = invoiceRules.lines(body.lines);
      if (given(body.taxBasis)) patch.taxBasis = invoiceRules.taxBasis(body.taxBasis);
      const invoice = await app.store.transact(ws, async (tx) => {
        const current = await tx.get<Invoice>(INVOICES, params.id);
        if (!current) throw notFound('invoice not found');
        // Sending the stored values again (a form that saves every field) is not an edit.
        const changed = CONTENT_FIELDS.filter((k) => patch[k] !== undefined && !isDeepStrictEqual(patch[k], current[k]));
        if ((current.status ?? 'draft') !== 'draft' && changed.length > 0) throw invoiceLocked(params.id, changed);
        if (changed.some((k) => k === 'lines' || k === 'taxBasis' || k === 'amount' || k === 'desc')) Object.assign(patch, refigure(current, patch));
        const now = Date.now();
        const stamp = patch.status && patch.status !== 'draft' && current.status === 'draft' && !current.issuedAt ? { issuedAt: now } : {};
        return tx.patch(INVOICES, params.id, { ...patch, ...stamp, updated: now });
      });
      return { invoice };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/invoice/:id/pdf',
    produces: 'application/pdf',
    auth: 'sales:view',
    params: idParams,
    handler: async ({ app, ws, req, params }) => {
      await limitHeavy(app, ws, req.ip);
      const inv = await app.store.get<Invoice>(ws, INVOICES, params.id);
      if (!inv) throw notFound('invoice not found');
      const pdf = await pdfRenderers.invoice(inv, await readCompany(app.store, ws));
      return new Reply(200, Buffer.from(pdf), {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${inv.id.replace(/[^\w.-]/g, '_')}.pdf"`,
        'Cache-Control': 'no-store',
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/billing/summary',
    response: invoiceResponses.summary,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ summary: billingSummary(await app.store.list(ws, INVOICES), jstYymm()) }),
  }),
];
