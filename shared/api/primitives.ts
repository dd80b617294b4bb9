/** Tolerant building blocks of the wire schemas (pure TypeScript, no node/DOM imports). */
import { z } from 'zod';

export const str = z.string();
/** Optional text; a null from the server reads as absent. */
export const optStr = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
export const num = z.number();
/** Strings the server may also send as numbers (free-text fields). */
export const textish = z.union([z.string(), z.number()]).transform((v) => String(v));

/** A success body: the envelope's `ok:true` and the route's own fields (extra fields pass). */
export const ok = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ ok: z.literal(true) }).extend(shape);

/** `{ok, <key>: item[]}`: the body of a list route. */
export const okList = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.looseObject({ ok: z.literal(true) }).extend({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> });

/** `{ok, <key>: item}`: the body of a route that answers one record. */
export const okItem = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.looseObject({ ok: z.literal(true) }).extend({ [key]: item } as { [P in K]: T });

/** Success bodies of a collection's list, create, update and delete routes (`{ok, id}` on delete). */
export function crudResponses<L extends string, I extends string, T extends z.ZodType>(listKey: L, itemKey: I, item: T) {
  return { list: okList(listKey, item), create: okItem(itemKey, item), update: okItem(itemKey, item), remove: ok({ id: str }) };
}
