/**
 * RFC 8785 JSON Canonicalization Scheme: object members sorted by their names' UTF-16 code units,
 * no whitespace, numbers and strings serialised as ECMAScript's JSON.stringify does (which is what
 * RFC 8785 specifies). Values JSON cannot carry (undefined, functions, non-finite numbers, lone
 * surrogates) are refused rather than silently dropped, so a signed record always means one thing.
 */
/** In u-mode a paired surrogate is one code point: only an unpaired half matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function canonicalize(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonical JSON: non-finite number');
      return JSON.stringify(value);
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new TypeError('canonical JSON: lone surrogate in string');
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalize(v)).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
      // Array.prototype.sort without a comparator orders by UTF-16 code units, as RFC 8785 §3.2.3 asks.
      keys.sort();
      return `{${keys.map((k) => `${canonicalize(k)}:${canonicalize(obj[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON: cannot serialise ${typeof value}`);
  }
}
