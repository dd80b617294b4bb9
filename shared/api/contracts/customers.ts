/** Wire contract of customers and renewals. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

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
