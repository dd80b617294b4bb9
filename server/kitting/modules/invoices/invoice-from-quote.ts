import { jstDate, jstYymm } from '../../../../shared/dates';
import { invoiceRequests, invoiceResponses } from '../../../../shared/api/contracts/quotes';
import type { InvoiceLine } from '../../../../shared/invoice-tax';
import { conflict, notFound } from '../../../core/errors';
import { defineRoute } from '../../http/define-route';
import { issueNumber } from '../../store/series';
import { QUOTES, totalsOf, type Quote } from '../quotes/quote-model';
import { INVOICES, INVOICE_NUMBERS, invoiceRules, priced, type Invoice } from './invoices.service';

type Section = 'ini' | 'run';
const SECTION_NAME: Record<Section, string> = { ini: '初期費用', run: '月額費用' };

/**
 * The invoice lines of a quote: each line of the chosen sections as it was quoted (name, quantity, unit
 * price, standard rate), the run lines named as monthly, and the volume discount as a line of its own.
 * Quote prices are tax-excluded, so the invoice states its lines 税抜.
 */
function quoteInvoiceLines(q: Quote, sections: Section[]): InvoiceLine[] {
  const t = totalsOf(q);
  const out: InvoiceLine[] = [];
  for (const key of sections) {
    const monthly = key === 'run';
    for (const l of q[key]) {
      if (l.q === 0 && l.p === 0) continue;
      out.push({ description: `${monthly ? '【月額】' : ''}${l.n}`.slice(0, 200), quantity: l.q, unitPrice: l.p, taxRate: 10 });
    }
    const discount = key === 'ini' ? t.iniDiscount : t.runDiscount;
    if (discount > 0) out.push({ description: `${SECTION_NAME[key]} ボリューム値引き（${t.volumeRate}%）`, quantity: 1, unitPrice: -discount, taxRate: 10 });
  }
  return out;
}

const readSections = (v: unknown): Section[] => {
  const list = Array.isArray(v) ? v.filter((x): x is Section => x === 'ini' || x === 'run') : [];
  return list.length ? [...new Set(list)] : ['ini', 'run'];
};

/** POST /api/quote/{id}/invoice: 「見積から請求書を作成」. */
export const invoiceFromQuoteRoute = defineRoute({
  method: 'post',
  path: '/api/quote/:id/invoice',
  response: invoiceResponses.one,
  auth: 'sales:edit',
  params: invoiceRequests.params,
  body: invoiceRequests.fromQuote,
  handler: async ({ app, ws, params, body }) => {
    const month = body.month !== undefined && body.month !== null && body.month !== '' ? invoiceRules.month(body.month) : jstYymm();
    const due = invoiceRules.due(body.due);
    const sections = readSections(body.sections);
    const invoice = await app.store.transact(ws, async (tx) => {
      const q = await tx.get<Quote>(QUOTES, params.id);
      if (!q) throw notFound('not_found');
      if (typeof q.issuedAt !== 'number') throw conflict('quote not issued', { message: '発行済みの見積からのみ請求書を作成できます。先に見積を発行してください' });
      const figures = priced(quoteInvoiceLines(q, sections), '税抜');
      let id: string;
      do id = (await issueNumber(tx, INVOICE_NUMBERS, month)).value;
      while (await tx.get(INVOICES, id));
      const now = Date.now();
      const doc: Invoice = {
        id,
        cust: invoiceRules.cust(q.cust),
        month,
        desc: invoiceRules.desc(`御見積 ${String(q.id)} に基づくご請求`),
        due,
        status: 'draft',
        recurring: false,
        ...figures,
        quoteId: String(q.id),
        date: jstDate(now),
        created: now,
        updated: now,
      };
      return tx.create(INVOICES, id, doc);
    });
    return { invoice };
  },
});
