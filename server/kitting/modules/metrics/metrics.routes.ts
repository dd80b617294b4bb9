import { defineRoute } from '../../http/define-route';
import { badRequest } from '../../../core/errors';
import { DAAS_QUOTES } from '../daas/daas.service';
import { INVOICES } from '../invoices/invoices.service';
import { QUOTES } from '../quotes/quote-model';
import { overview, revenueMix } from './metrics.service';
import { metricsRequests, metricsResponses, MIX_MONTHS } from '../../../../shared/api/contracts/ops';

/** months as the route reads it (a server-side reader: it answers the contract's 400). */
function readMonths(v: unknown): number {
  if (v === undefined || v === '') return MIX_MONTHS.default;
  const s = Array.isArray(v) ? v[0] : v;
  const n = typeof s === 'string' && /^\d+$/.test(s.trim()) ? Number(s) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MIX_MONTHS.max) throw badRequest('invalid months', { message: `months は 1〜${MIX_MONTHS.max} の整数で指定してください` });
  return n;
}

export const metricsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/metrics/overview',
    response: metricsResponses.overview,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => {
      const [invoices, customers, jobs, shipments, daas, quotes] = await Promise.all(
        [INVOICES, 'customers', 'jobs', 'shipments', DAAS_QUOTES, QUOTES].map((c) => app.store.list(ws, c)),
      );
      return overview({ invoices: invoices!, customers: customers!, jobs: jobs!, shipments: shipments!, daas: daas!, quotes: quotes! });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/revenue/mix',
    response: metricsResponses.mix,
    auth: 'mgmt:view',
    query: metricsRequests.mix,
    handler: async ({ app, ws, query }) => revenueMix(await app.store.list(ws, INVOICES), readMonths(query.months)),
  }),
];
