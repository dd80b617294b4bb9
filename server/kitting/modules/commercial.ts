import type { RouteDef } from '../http/define-route';
import type { SeedSpec } from '../store/seed';
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

/** Routes of the commercial domains (one folder each under server/kitting/modules/), mounted by modules/index.ts. */
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
  { file: 'quotes.json', coll: QUOTES },
  { file: 'daas-quotes.json', coll: DAAS_QUOTES },
];
