/**
 * Field rules of the API contract ("clip 120", "default 入荷待ち", "clamped 0..7") as
 * one-line declarations. A resource declares its fields once; `createShape` applies
 * defaults for a new record and `patchShape` keeps only the fields a caller sent
 * (null and undefined mean "leave unchanged"). Wrong types are refused (400), long
 * strings are clipped, enums fall back as the contract says.
 */
import { z } from 'zod';

type Fallback<T> = T | (() => T);

/**
 * One field's rule. `T` is the value stored; `I` is what a client sends for it (the request type the
 * renderer's client reads from the contract with `z.input`).
 */
export class Field<T, I = unknown> {
  constructor(
    readonly zod: z.ZodType<T, I>,
    readonly fallback?: () => T,
    /** An empty string counts as missing, so the default applies. */
    readonly blankIsMissing = false,
    /** null is a value of its own (stored as null, and overwrites on update). */
    readonly keepsNull = false,
  ) {}

  /** Value used on create when the field is missing, null (or blank for text). */
  default(value: Fallback<T>): Field<T, I> {
    const fn = typeof value === 'function' ? (value as () => T) : () => value;
    return new Field(this.zod, fn, true, this.keepsNull);
  }

  /** No value on create when missing (the key is left out). */
  optional(): Field<T, I> {
    return new Field(this.zod, undefined, this.blankIsMissing, this.keepsNull);
  }

  /** Accept null as a value (e.g. `renew: null` clears a customer's renewal). */
  nullable(): Field<T | null, I | null> {
    return new Field<T | null, I | null>(this.zod as z.ZodType<T | null, I | null>, this.fallback, this.blankIsMissing, true);
  }
}

/** Truncate to n characters (code points, so a surrogate pair is never split). */
export function clip(value: string, n: number): string {
  if (value.length <= n) return value;
  const points = Array.from(value);
  return points.length <= n ? value : points.slice(0, n).join('');
}

/** A form value as text: a string or number, trimmed and clipped to n characters; anything else reads as ''. */
export const textValue = (v: unknown, n: number): string => (typeof v === 'string' || typeof v === 'number' ? clip(String(v).trim(), n) : '');

/** A number as clients send it: a number as is, a numeric string read, anything else (or '') NaN. */
export function looseNumber(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

const stringLike = z.union([z.string(), z.number().refine(Number.isFinite, 'must be a finite number')], {
  error: 'must be a string',
});

/** String clipped to n characters; numbers are accepted and written as text. */
export function text(n: number): Field<string, string | number> {
  return new Field(stringLike.transform((v) => clip(String(v), n)), () => '');
}

/** Finite number (numeric strings accepted), stored as given. */
export function num(): Field<number, number | string> {
  return new Field(
    z.union([z.number(), z.string()]).transform((v, ctx) => {
      const n = looseNumber(v);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: 'must be a finite number' });
        return z.NEVER;
      }
      return n;
    }),
  );
}

/** Integer clamped to [min, max]; anything not finite reads as `fallback`. */
export function intClamp(min: number, max: number, fallback: number): Field<number, number | string> {
  const read = (v: unknown): number => {
    const n = looseNumber(v);
    return Number.isFinite(n) ? clamp(Math.trunc(n), min, max) : fallback;
  };
  // Any value is read (and falls back); the input type names what a client means to send.
  return new Field(z.unknown().transform(read) as z.ZodType<number, number | string>, () => fallback);
}

/** One of the listed values; any other value reads as `fallback`. */
export function oneOf<const T extends string>(values: readonly T[], fallback: T): Field<T, T> {
  const allowed = new Set<string>(values);
  return new Field(
    // Any value is read (and falls back); the input type names what a client means to send.
    z.unknown().transform((v) => (typeof v === 'string' && allowed.has(v) ? (v as T) : fallback)) as z.ZodType<T, T>,
    () => fallback,
  );
}

export function bool(): Field<boolean, boolean | 'true' | 'false' | 0 | 1> {
  return new Field(
    z.union([z.boolean(), z.literal('true'), z.literal('false'), z.literal(0), z.literal(1)], {
      error: 'must be true or false',
    }).transform((v) => v === true || v === 'true' || v === 1),
    () => false,
  );
}

export function json<T, I = T>(schema: z.ZodType<T, I>): Field<T, I> {
  return new Field(schema);
}

export type FieldMap = Record<string, Field<unknown, unknown>>;
export type Shape<F extends FieldMap> = { [K in keyof F]: F[K] extends Field<infer T, unknown> ? T : never };
/** What a client sends for a field map: any subset of the fields; null means "default" on create, "unchanged" on update. */
export type ShapeInput<F extends FieldMap> = { [K in keyof F]?: (F[K] extends Field<unknown, infer I> ? I : never) | null };

/** A schema that rewrites the raw body first (an alias, a required field's check), keeping the schema's types. */
export function preprocessed<O, I>(fn: (body: unknown) => unknown, schema: z.ZodType<O, I>): z.ZodType<O, I> {
  return z.preprocess(fn, schema) as unknown as z.ZodType<O, I>;
}

function isMissing(field: Field<unknown>, v: unknown): boolean {
  return v === undefined || v === null || (field.blankIsMissing && typeof v === 'string' && v.trim() === '');
}

function inputObject(fields: FieldMap) {
  const entries = Object.keys(fields).map((k) => [k, z.unknown().optional()] as const);
  return z.object(Object.fromEntries(entries), { error: 'body must be a JSON object' });
}

/** Schema for a new record: every declared field present, defaults applied. */
export function createShape<F extends FieldMap>(fields: F): z.ZodType<Shape<F>, ShapeInput<F>> {
  return inputObject(fields).transform((input, ctx) => {
    const out: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(fields)) {
      const v = input[k];
      if (v === null && f.keepsNull) {
        out[k] = null;
        continue;
      }
      if (isMissing(f, v)) {
        if (f.fallback) out[k] = f.fallback();
        continue;
      }
      const r = f.zod.safeParse(v);
      if (!r.success) {
        for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [k, ...issue.path] });
        continue;
      }
      out[k] = r.data;
    }
    return out as Shape<F>;
  }) as unknown as z.ZodType<Shape<F>, ShapeInput<F>>;
}

/** Schema for an update: only fields the caller sent with a non-null value. */
export function patchShape<F extends FieldMap>(fields: F): z.ZodType<Partial<Shape<F>>, ShapeInput<F>> {
  return inputObject(fields).transform((input, ctx) => {
    const out: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(fields)) {
      const v = input[k];
      if (v === null && f.keepsNull) {
        out[k] = null;
        continue;
      }
      if (v === undefined || v === null) continue;
      const r = f.zod.safeParse(v);
      if (!r.success) {
        for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [k, ...issue.path] });
        continue;
      }
      out[k] = r.data;
    }
    return out as Partial<Shape<F>>;
  }) as unknown as z.ZodType<Partial<Shape<F>>, ShapeInput<F>>;
}
