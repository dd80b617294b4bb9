import { z } from 'zod';
import { clip, json, text } from '../../../../shared/fields';
import { crudRoutes, randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest } from '../../../core/errors';
import type { CountedCollection } from '../../../core/store/count-guard';
import type { Doc } from '../../../core/store/types';
import { collectionSchema, stamp } from '../../../core/http/collection-schema';

export const CUSTOMERS = 'customers';
/** Customers count against a central tenant's plan. */
export const customersPlanCounted: CountedCollection = { coll: CUSTOMERS, resource: 'customers' };

const s120 = z.union([z.string(), z.number()]).transform((v) => clip(String(v), 120)).optional();

/** YYYY-MM-DD naming a day that exists (not 2027-02-30 or 2027-13-01). */
function isCalendarDate(d: string): boolean {
  const t = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
}

/** Renewal block of a customer; dateLabel and year follow from the date when omitted. */
const renewSchema = z
  .object({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
      .refine(isCalendarDate, 'date must be a real calendar date'),
    dateLabel: s120,
    year: s120,
    kind: s120,
    kindChip: s120,
    what: s120,
    detail: z.union([z.string(), z.number()]).transform((v) => clip(String(v), 300)).optional(),
    confidence: s120,
    confColor: s120,
  })
  .transform((r) => ({
    ...r,
    dateLabel: r.dateLabel || `${r.date.slice(5, 7)}/${r.date.slice(8, 10)}`,
    year: r.year || r.date.slice(0, 4),
  }));

function requireName(body: unknown): unknown {
  const b = (body ?? {}) as Record<string, unknown>;
  if (b && typeof b === 'object' && (typeof b.name !== 'string' && typeof b.name !== 'number' || String(b.name).trim() === '')) {
    throw badRequest('name required', { message: '顧客名(name)は必須です' });
  }
  return body;
}

const customerFields = {
  key: text(40),
  name: text(120),
  industry: text(120),
  mdm: text(60),
  monthly: text(60).default('—'),
  devices: text(60).default('—'),
  since: text(40).default('—'),
  status: text(40),
  statusChip: text(40).default('c-gray'),
  note: text(1000),
  renew: json(renewSchema).nullable().default(null),
};
export const customerSchema = collectionSchema(CUSTOMERS, customerFields, { created: stamp(), updated: stamp() });

const customerCrud = crudRoutes({
  scope: 'sales',
  coll: CUSTOMERS,
  listPath: '/api/customers',
  listKey: 'customers',
  itemPath: '/api/customer',
  itemKey: 'customer',
  notFoundError: 'customer not found',
  fields: customerFields,
  newId: async () => randomId('cust-'),
  onCreate: (doc) => {
    requireName(doc);
    return { created: Date.now() };
  },
  onUpdate: (merged) => {
    requireName(merged);
    return { updated: Date.now() };
  },
  createResponse: (doc) => ({ id: doc.id, customer: doc }),
});

interface Renew {
  date: string;
  dateLabel?: string;
  year?: string;
  kind?: string;
  kindChip?: string;
  what?: string;
  detail?: string;
  confidence?: string;
  confColor?: string;
}

/** Renewals derive from customers with renew.date, ascending by date. */
export function renewalsOf(customers: Doc[]): Doc[] {
  return customers
    .filter((c) => c.renew && typeof (c.renew as Renew).date === 'string')
    .map((c) => {
      const r = c.renew as Renew;
      return {
        id: `ren-${c.id}`,
        customerId: c.id,
        customer: c.name,
        date: r.date,
        dateLabel: r.dateLabel ?? `${r.date.slice(5, 7)}/${r.date.slice(8, 10)}`,
        year: r.year ?? r.date.slice(0, 4),
        kind: r.kind ?? '',
        kindChip: r.kindChip ?? '',
        what: r.what ?? '',
        detail: r.detail ?? '',
        confidence: r.confidence ?? '',
        confColor: r.confColor ?? '',
      };
    })
    .sort((a, b) => a.date.localeCompare(b.date));
}

export const customerRoutes = [
  ...customerCrud,
  defineRoute({
    method: 'get',
    path: '/api/renewals',
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ renewals: renewalsOf(await app.store.list(ws, CUSTOMERS)) }),
  }),
];
