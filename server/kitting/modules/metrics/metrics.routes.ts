import { z } from 'zod';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest } from '../../../core/errors';
import { DAAS_QUOTES } from '../daas/daas.service';
import { INVOICES } from '../invoices/invoices.service';
import { QUOTES } from '../quotes/quote-model';
import { overview, revenueMix } from './metrics.service';

const DEFAULT_POINTS = 12;
const mixQuery = z.object({ months: z.unknown().optional() });

function readMonths(v: unknown): number {
  if (v === undefined || v === '') return DEFAULT_POINTS;
  const s = Array.isArray(v) ? v[0] : v;
  const n = typeof s === 'string' && /^\d+$/.test(s.trim()) ? Number(s) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 120) throw badRequest('invalid months', { message: 'months は 1〜120 の整数で指定してください' });
  return n;
}

export const metricsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/metrics/overview',
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
    auth: 'mgmt:view',
    query: mixQuery,
    handler: async ({ app, ws, query }) => revenueMix(await app.store.list(ws, INVOICES), readMonths(query.months)),
  }),
];
