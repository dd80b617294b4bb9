/**
 * Field rules of the API contract ("clip 120", "default 入荷待ち", "clamped 0..7") as
 * one-line declarations. A resource declares its fields once; `createShape` applies
 * defaults for a new record and `patchShape` keeps only the fields a caller sent
 * (null and undefined mean "leave unchanged"). Wrong types are refused (400), long
 * strings are clipped, enums fall back as the contract says.
 */
import { z } from 'zod';

type Fallback<T> = T | (() => T);

export class Field<T> {
  constructor(
    readonly zod: z.ZodType<T>,
    readonly fallback?: () => T,
    /** An empty string counts as missing, so the default applies. */
    readonly blankIsMissing = false,
    /** null is a value of its own (stored as null, and overwrites on update). */
    readonly keepsNull = false,
  ) {}

  /** Value used on create when the field is missing, null (or blank for text). */
  default(value: Fallback<T>): Field<T> {
    const fn = typeof value === 'function' ? (value as () => T) : () => value;
    return new Field(this.zod, fn, true, this.keepsNull);
  }

  /** No value on create when missing (the key is left out). */
  optional(): Field<T> {
    return new Field(this.zod, undefined, this.blankIsMissing, this.keepsNull);
  }

  /** Accept null as a value (e.g. `renew: null` clears a customer's renewal). */
  nullable(): Field<T | null> {
    return new Field<T | null>(this.zod, this.fallback, this.blankIsMissing, true);
  }
}

/** Truncate to n characters (code points, so a surrogate pair is never split). */
export function clip(value: string, n: number): string {
  if (value.length <= n) return value;
  const points = Array.from(value);
  return points.length <= n ? value : points.slice(0, n).join('');
}

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
export function text(n: number): Field<string> {
  return new Field(stringLike.transform((v) => clip(String(v), n)), () => '');
}

/** Finite number (numeric strings accepted), stored as given. */
export function num(): Field<number> {
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
export function intClamp(min: number, max: number, fallback: number): Field<number> {
  const read = (v: unknown): number => {
    const n = looseNumber(v);
    return Number.isFinite(n) ? clamp(Math.trunc(n), min, max) : fallback;
  };
  return new Field(z.unknown().transform(read), () => fallback);
}

/** One of the listed values; any other value reads as `fallback`. */
export function oneOf<const T extends string>(values: readonly T[], fallback: T): Field<T> {
  const allowed = new Set<string>(values);
  return new Field(
    z.unknown().transform((v) => (typeof v === 'string' && allowed.has(v) ? (v as T) : fallback)),
    () => fallback,
  );
}

export function bool(): Field<boolean> {
  return new Field(
    z.union([z.boolean(), z.literal('true'), z.literal('false'), z.literal(0), z.literal(1)], {
      error: 'must be true or false',
    }).transform((v) => v === true || v === 'true' || v === 1),
    () => false,
  );
}

export function json<T>(schema: z.ZodType<T>): Field<T> {
  return new Field(schema);
}

export type FieldMap = Record<string, Field<unknown>>;
export type Shape<F extends FieldMap> = { [K in keyof F]: F[K] extends Field<infer T> ? T : never };

function isMissing(field: Field<unknown>, v: unknown): boolean {
  return v === undefined || v === null || (field.blankIsMissing && typeof v === 'string' && v.trim() === '');
}

function inputObject(fields: FieldMap) {
  const entries = Object.keys(fields).map((k) => [k, z.unknown().optional()] as const);
  return z.object(Object.fromEntries(entries), { error: 'body must be a JSON object' });
}

/** Schema for a new record: every declared field present, defaults applied. */
export function createShape<F extends FieldMap>(fields: F): z.ZodType<Shape<F>> {
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
  }) as unknown as z.ZodType<Shape<F>>;
}

/** Schema for an update: only fields the caller sent with a non-null value. */
export function patchShape<F extends FieldMap>(fields: F): z.ZodType<Partial<Shape<F>>> {
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
  }) as unknown as z.ZodType<Partial<Shape<F>>>;
}
