import type { RouteDef } from '../http/define-route';
import type { SeedSpec } from '../store/seed';
import { invoiceRoutes } from './invoices/invoices.routes';
import { invoiceSeed } from './invoices/invoices.service';
import { quoteRoutes } from './quotes/quotes.routes';

/** Routes of the commercial domains (one folder each under server/modules/), mounted by modules/index.ts. */
export const commercialRoutes: RouteDef[] = [...quoteRoutes, ...invoiceRoutes];

/** Demo data files these domains load into every new workspace. */
export const commercialSeeds: SeedSpec[] = [invoiceSeed];
