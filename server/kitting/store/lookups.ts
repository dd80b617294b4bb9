/**
 * Lookups: a field of a collection that writes find records by (exact value), declared by the module
 * that owns the collection. Each store keeps an index per declared lookup (created at start, see
 * `Store.ensureLookups`), so `find` reaches the matching records without reading the collection:
 * a ticket's messages by `ticketId`, a customer by `name`, team members by `email`.
 */
export interface Lookup {
  coll: string;
  field: string;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;
const declared = new Map<string, Lookup>();

const keyOf = (coll: string, field: string) => `${coll}\u0000${field}`;

/** Declare a lookup (idempotent). Names are plain identifiers: they are written into SQL. */
export function declareLookup(coll: string, field: string): Lookup {
  if (!NAME.test(coll) || !NAME.test(field)) throw new Error(`lookup ${coll}.${field}: collection and field must be plain identifiers`);
  const key = keyOf(coll, field);
  let l = declared.get(key);
  if (!l) declared.set(key, (l = Object.freeze({ coll, field })));
  return l;
}

/** Every lookup declared so far. */
export function declaredLookups(): Lookup[] {
  return [...declared.values()];
}

/** Refuse a lookup no module declared (it would have no index behind it). */
export function assertDeclared(coll: string, field: string): Lookup {
  const l = declared.get(keyOf(coll, field));
  if (!l) throw new Error(`no lookup declared for ${coll}.${field}`);
  return l;
}

/** Name of the index behind a lookup (the same in both stores). */
export function lookupIndexName(l: Lookup): string {
  return `records_by_${l.coll}_${l.field}`.toLowerCase().slice(0, 63);
}

/** Records whose field holds exactly `value` (a string; a number or other value never matches). */
export function matches(doc: Record<string, unknown>, field: string, value: string): boolean {
  return doc[field] === value;
}
