import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { Field, type FieldMap } from '../../../shared/fields';

/**
 * The one schema of a collection's records: the fields its write routes accept (the same field map the
 * routes validate their bodies with) and the fields the server derives or stamps itself (created,
 * chip, history, ...). A sync push is checked against it field by field: a value is accepted only
 * when the route's own rule would store it exactly as pushed, so a bench can write nothing through
 * sync that the routes would refuse, clip or replace, and no field the collection does not have.
 */
export interface CollectionSchema {
  coll: string;
  /** Fields callers send to the write routes (shared with those routes by reference). */
  fields: FieldMap;
  /** Fields the server writes itself. */
  derived: FieldMap;
  /** Field holding the record's key, which must name the record itself (default id). */
  idField: string;
  /** The only keys the routes write, for collections of fixed records (a simulator state, counters). */
  keys?: readonly string[];
  /** For records whose key the route derives from their fields: why these fields cannot be stored under this key, or null. */
  keyCheck?: (id: string, fields: Record<string, unknown>) => string | null;
}

export function collectionSchema(coll: string, fields: FieldMap, derived: FieldMap = {}, idField = 'id'): CollectionSchema {
  return { coll, fields, derived, idField };
}

/** The schema of a collection whose routes write only the named records. */
export const fixedKeys = (schema: CollectionSchema, keys: readonly string[]): CollectionSchema => ({ ...schema, keys });

/** The schema of a collection whose routes key each record by its fields (one registration per event and address). */
export const derivedKey = (schema: CollectionSchema, keyCheck: (id: string, fields: Record<string, unknown>) => string | null): CollectionSchema => ({ ...schema, keyCheck });

/** A millisecond time stamp (created, updated, ts ...). */
export const stamp = (): Field<number> => new Field(z.number().int().nonnegative());
/** A whole number the server counts or computes (totals, counters), within [min, max]. */
export const derivedInt = (min = 0, max = Number.MAX_SAFE_INTEGER): Field<number> => new Field(z.number().int().min(min).max(max));
/** A calendar date YYYY-MM-DD the server writes (order and receipt dates, contract dates). */
export const derivedDate = (): Field<string> => new Field(z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a YYYY-MM-DD date'));
/** A short derived text (chip colours, labels, stage names). */
export const derivedText = (n = 120): Field<string> => new Field(z.string().max(n));
/** A bounded list of small records (history, message lists), as derived by the server. */
export const derivedList = (max: number): Field<unknown[]> => new Field(z.array(z.unknown()).max(max));
/** A small JSON object derived by the server. */
export const derivedObject = (): Field<Record<string, unknown>> => new Field(z.record(z.string(), z.unknown()));

/**
 * A field whose rule is a route's own reader (returns the value the route stores, throws for a value the
 * route refuses), so routes that read their bodies with plain functions share them with the push check.
 */
export function ruleField<T>(read: (v: unknown) => T): Field<T> {
  return new Field(
    z.unknown().transform((v, ctx) => {
      try {
        return read(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : 'invalid value' });
        return z.NEVER;
      }
    }),
  );
}

/** The field map of a set of route readers (one ruleField each). */
export function ruleFields(rules: Record<string, (v: unknown) => unknown>): FieldMap {
  return Object.fromEntries(Object.entries(rules).map(([name, read]) => [name, ruleField(read)]));
}

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * The first field of a change that the collection's routes would not store as given, or null.
 * null values are accepted for every known field: in the change log they mean "field removed".
 */
export function fieldProblem(schema: CollectionSchema, id: string, fields: Record<string, unknown>): FieldProblem | null {
  if (schema.keys && !schema.keys.includes(id)) {
    return { field: schema.idField || 'id', message: `${schema.coll} holds only the records ${schema.keys.join(', ')}` };
  }
  const keyProblem = schema.keyCheck?.(id, fields);
  if (keyProblem) return { field: schema.idField || 'id', message: keyProblem };
  for (const [name, value] of Object.entries(fields)) {
    if (name === '_deleted') continue;
    if (name === schema.idField) {
      if (value !== id && value !== null) return { field: name, message: `${name} must be the record's own key` };
      continue;
    }
    const field = schema.fields[name] ?? schema.derived[name];
    if (!field) return { field: name, message: `unknown field ${name} of ${schema.coll}` };
    if (value === null) continue;
    const parsed = field.zod.safeParse(value);
    if (!parsed.success) return { field: name, message: parsed.error.issues[0]?.message ?? 'invalid value' };
    if (!isDeepStrictEqual(parsed.data, value)) {
      return { field: name, message: 'value the routes would not store as given (too long, wrong type or not one of the allowed values)' };
    }
  }
  return null;
}

/**
 * A route's field as the route stores it: a blank text of a field with a default is replaced by the route, so
 * it is refused, and `check` adds the route's own test of the stored value (a real date, a non-empty name ...).
 */
export function storedField<T>(field: Field<T>, check?: (v: T) => boolean, message = 'value the routes would not store as given'): Field<T> {
  const blank = (v: T) => field.blankIsMissing && typeof v === 'string' && v.trim() === '';
  return new Field(
    field.zod.refine((v) => !blank(v) && (!check || check(v)), message),
    field.fallback,
    field.blankIsMissing,
    field.keepsNull,
  );
}
