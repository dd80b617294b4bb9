import type { CountedCollection } from '../../store/count-guard';
import type { Doc } from '../../store/types';

export const CUSTOMERS = 'customers';
/** Customers count against a central tenant's plan. */
export const customersPlanCounted: CountedCollection = { coll: CUSTOMERS, resource: 'customers' };

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
