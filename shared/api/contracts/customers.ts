/** Wire contract of customers and renewals. */
import { z } from 'zod';
import { clip, createShape, json, patchShape, text } from '../../fields';
import { crudResponses, num, ok, okList, optStr, str } from '../primitives';

export const Renew = z.looseObject({
  date: optStr,
  dateLabel: optStr,
  year: z.union([str, num]).optional(),
  kind: optStr,
  kindChip: optStr,
  what: optStr,
  detail: optStr,
  confidence: z.union([str, num]).optional(),
  confColor: optStr,
});
export const Customer = z.looseObject({
  id: str,
  key: optStr,
  name: str,
  industry: optStr,
  mdm: optStr,
  monthly: optStr,
  devices: optStr,
  since: optStr,
  status: optStr,
  statusChip: optStr,
  note: optStr,
  renew: Renew.nullable().optional(),
});
export type Customer = z.infer<typeof Customer>;
export const Renewal = Renew.extend({ id: str, customerId: optStr, customer: optStr });
export type Renewal = z.infer<typeof Renewal>;

/** Success bodies of the customer and renewal routes (create also answers the new id). */
export const customerResponses = {
  ...crudResponses('customers', 'customer', Customer),
  create: ok({ id: str, customer: Customer }),
  renewals: okList('renewals', Renewal),
};

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

/** A customer as a client writes it (name is required on create and can't be blanked; the server checks it). */
export const customerFields = {
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

/** Request schemas of the customer routes (POST /api/customer, POST /api/customer/{id}). */
export const customerRequests = {
  create: createShape(customerFields),
  patch: patchShape(customerFields),
};
export type CustomerCreate = z.input<typeof customerRequests.create>;
export type CustomerPatch = z.input<typeof customerRequests.patch>;
