import { jstYymm } from '../../../../shared/dates';
import { defineRoute } from '../../http/define-route';
import { notFound } from '../../../core/errors';
import type { AppContext } from '../../context';
import type { Doc } from '../../store/types';
import { INVOICES, readMonth } from '../invoices/invoices.service';
import { buildReport, REPORTS } from './reports.service';
import { reportResponses } from '../../../../shared/api/contracts/backoffice';
import { reportRequests } from '../../../../shared/api/contracts/backoffice-requests';

const { preview: genQuery, generate: generateBody, params: idParams } = reportRequests;

/** The customer a report is for: by id, key or exact name; null for all customers; 404 unknown. */
async function resolveCustomer(app: AppContext, ws: string, cust: unknown): Promise<{ key: string; name: string } | null> {
  const s = typeof cust === 'string' ? cust.trim() : '';
  if (!s || s === 'all') return null;
  const c = (await app.store.list(ws, 'customers')).find((x) => x.id === s || x.key === s || x.name === s);
  if (!c) throw notFound('customer not found', { message: `顧客「${s}」が見つかりません` });
  const key = String(c.key || c.id).replace(/[^\w-]/g, '') || String(c.id);
  return { key, name: String(c.name) };
}

async function generate(app: AppContext, ws: string, cust: unknown, month: unknown) {
  const yymm = month === undefined || month === null || month === '' ? jstYymm() : readMonth(month);
  const customer = await resolveCustomer(app, ws, cust);
  const list = (coll: string): Promise<Doc[]> => app.store.list(ws, coll);
  const [devices, jobs, tickets, shipments, invoices, certs] = await Promise.all(['devices', 'jobs', 'tickets', 'shipments', INVOICES, 'erasureCerts'].map(list));
  return buildReport({ devices: devices!, jobs: jobs!, tickets: tickets!, shipments: shipments!, invoices: invoices!, certs: certs! }, yymm, customer);
}

export const reportRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/reports',
    response: reportResponses.list,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => {
      const reports = (await app.store.list(ws, REPORTS)).sort((a, b) => (Number(b.generatedAt) || 0) - (Number(a.generatedAt) || 0));
      return { reports, count: reports.length };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/report/generate',
    response: reportResponses.generate,
    auth: 'mgmt:view',
    query: genQuery,
    handler: async ({ app, ws, query }) => {
      const report = await generate(app, ws, query.cust, query.month);
      return { report, hasData: report.hasData };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/report/generate',
    response: reportResponses.generate,
    auth: 'mgmt:edit',
    body: generateBody,
    handler: async ({ app, ws, body }) => {
      const report = await generate(app, ws, body.cust, body.month);
      await app.store.transact(ws, (tx) => tx.put(REPORTS, report.id, report));
      return { report, hasData: report.hasData };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/report/:id',
    response: reportResponses.one,
    auth: 'mgmt:view',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const report = await app.store.get(ws, REPORTS, params.id);
      if (!report) throw notFound('report not found', { message: 'レポートが見つかりません' });
      return { report };
    },
  }),
];
