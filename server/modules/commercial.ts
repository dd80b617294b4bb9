import type { RouteDef } from '../http/define-route';
import { maxNumber, type SeedSpec } from '../store/seed';
import { daasRoutes } from './daas/daas.routes';
import { DAAS_QUOTES } from './daas/daas.service';
import { invoiceRoutes } from './invoices/invoices.routes';
import { invoiceSeed } from './invoices/invoices.service';
import { metricsRoutes } from './metrics/metrics.routes';
import { QUOTES } from './quotes/quote-model';
import { quoteRoutes } from './quotes/quotes.routes';
import { reportRoutes } from './reports/reports.routes';
import { storeOrderRoutes } from './store-orders/store-orders.routes';
import { tradeinRoutes } from './tradein/tradein.routes';

/** Routes of the commercial domains (one folder each under server/modules/), mounted by modules/index.ts. */
export const commercialRoutes: RouteDef[] = [
  ...quoteRoutes,
  ...invoiceRoutes,
  ...metricsRoutes,
  ...daasRoutes,
  ...storeOrderRoutes,
  ...tradeinRoutes,
  ...reportRoutes,
];

/** Demo data files these domains load into every new workspace. */
export const commercialSeeds: SeedSpec[] = [
  invoiceSeed,
  {
    file: 'quotes.json',
    coll: QUOTES,
    after: async (tx, docs) => {
      const months = new Set(docs.map((d) => /^Q-(\d{4})-/.exec(String(d.id))?.[1]).filter((m): m is string => !!m));
      for (const m of months) await tx.bumpSeries(`quote:${m}`, maxNumber(docs, 'id', new RegExp(`^Q-${m}-(\\d+)$`)));
    },
  },
  { file: 'daas-quotes.json', coll: DAAS_QUOTES },
];
