import { jstYear, jstYymm } from '../../../shared/dates';
import { unavailable, type DomainError } from '../../core/errors';
import type { Doc, Tx } from './types';

/**
 * Numbered series: every sequential human-readable number of the product (SHP-1012, TK-0673,
 * KIT-ERZ-2026-0001, INV-2611-004, …) is declared once here by the module that issues it. The
 * declaration is what the module issues with, what a new workspace's demo data raises the counter
 * past, what an enrolling bench is handed blocks of, and what renumbering rewrites. The core knows
 * no domain: modules register their declarations when they load (like declareCap).
 */

/** How a series restarts: never, per calendar year as YYYY (2026) or YY (26), per month as YYMM (2611) or YYYYMM (202611), in Japan time. */
export type SeriesPeriod = 'none' | 'year' | 'yy' | 'yymm' | 'yyyymm';

export interface SeriesDeclaration {
  /** Counter name; a periodic series counts per period under `${name}:${period}`. */
  name: string;
  period: SeriesPeriod;
  /** First number of a fresh counter (default 1). */
  start?: number;
  /** Collection and field holding the number ('id', 'no', 'asset', 'seq'). */
  coll: string;
  field: string;
  /** The record's key is the field's value (devices are keyed by IMEI: false). */
  keyed: boolean;
  /** The field's value for number n of a period ('' for a series without period). */
  format: (n: number, period: string) => string | number;
  /** The whole value; named groups: n = the number, p = the period of a periodic series. */
  pattern: RegExp;
  /**
   * Numbers an enrolled bench holds in reserve (its overflow range) beyond its leased block, per
   * period: what the busiest bench issues in an offline day. Used only once the block is spent.
   */
  reserve: number;
  /**
   * Highest number the series issues (default MAX_SERIES_NUMBER): no lease, enrolment level or counter
   * goes past it, so a number stays inside its format and far below Number.MAX_SAFE_INTEGER.
   */
  max?: number;
  /** Other fields of the record that follow a new number when renumbered. */
  follow?: (doc: Doc, before: string, after: string, oldN: number, newN: number) => Doc;
  /** Fields of other collections holding this record's key (they follow a renumbered key). */
  references?: { coll: string; field: string }[];
}

export interface NumberedSeries extends SeriesDeclaration {
  start: number;
  max: number;
  /** Whether number `n` of `period` is one the series can issue (1..max, and its value matches the pattern). */
  fits(n: number, period?: string): boolean;
  /** Counter name of a period (the name itself for a series without period). */
  counter(period?: string): string;
  /** The period a number issued at `ms` belongs to ('' without period). */
  periodAt(ms: number): string;
  /** The period after `period` ('' without period). */
  nextPeriod(period: string): string;
}

/** Highest number of a series unless its declaration says otherwise (nine digits). */
const MAX_SERIES_NUMBER = 999_999_999;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function periodAt(kind: SeriesPeriod, ms: number): string {
  if (kind === 'none') return '';
  if (kind === 'year') return String(jstYear(ms));
  if (kind === 'yy') return pad(jstYear(ms) % 100);
  const yymm = jstYymm(ms);
  return kind === 'yymm' ? yymm : `${jstYear(ms)}${yymm.slice(2)}`;
}

function nextPeriod(kind: SeriesPeriod, period: string): string {
  if (kind === 'none') return '';
  if (kind === 'year') return String(Number(period) + 1);
  if (kind === 'yy') return pad((Number(period) + 1) % 100);
  const digits = kind === 'yymm' ? 2 : 4;
  const year = Number(period.slice(0, digits));
  const month = Number(period.slice(digits));
  const y = month === 12 ? year + 1 : year;
  return `${kind === 'yymm' ? pad(y % 100) : String(y)}${pad(month === 12 ? 1 : month + 1)}`;
}

const PERIOD_RE: Record<Exclude<SeriesPeriod, 'none'>, RegExp> = { year: /^\d{4}$/, yy: /^\d{2}$/, yymm: /^\d{2}(0[1-9]|1[0-2])$/, yyyymm: /^\d{4}(0[1-9]|1[0-2])$/ };

function complete(d: SeriesDeclaration): NumberedSeries {
  const max = Math.min(d.max ?? MAX_SERIES_NUMBER, Number.MAX_SAFE_INTEGER - 1);
  return {
    ...d,
    start: d.start ?? 1,
    max,
    fits: (n, period = '') => {
      if (!Number.isSafeInteger(n) || n < 1 || n > max) return false;
      const m = d.pattern.exec(String(d.format(n, period)));
      return m !== null && Number(m.groups?.n) === n && (d.period === 'none' || m.groups?.p === undefined || m.groups.p === period);
    },
    counter: (period = '') => (d.period === 'none' ? d.name : `${d.name}:${period}`),
    periodAt: (ms) => periodAt(d.period, ms),
    nextPeriod: (p) => nextPeriod(d.period, p),
  };
}

/** What an enrolled bench keeps of one counter: a block and its reserve. */
export interface CounterPlan {
  counter: string;
  series: NumberedSeries;
  start: number;
  reserve: number;
}

/** The numbered series of the product, by name. */
export class SeriesRegistry {
  private readonly byName = new Map<string, NumberedSeries>();

  declare(d: SeriesDeclaration): NumberedSeries {
    const prev = this.byName.get(d.name);
    if (prev && (prev.coll !== d.coll || prev.field !== d.field)) {
      throw new Error(`number series ${d.name} declared twice (${prev.coll}.${prev.field}, ${d.coll}.${d.field})`);
    }
    const s = complete(d);
    this.byName.set(d.name, s);
    return s;
  }

  all(): NumberedSeries[] {
    return [...this.byName.values()];
  }

  /** The series and period a counter name belongs to (null for one no module declares). */
  find(counter: string): { series: NumberedSeries; period: string } | null {
    const i = counter.lastIndexOf(':');
    const plain = this.byName.get(counter);
    if (plain && plain.period === 'none') return { series: plain, period: '' };
    if (i < 0) return null;
    const s = this.byName.get(counter.slice(0, i));
    const period = counter.slice(i + 1);
    if (!s || s.period === 'none' || !PERIOD_RE[s.period].test(period)) return null;
    return { series: s, period };
  }

  /**
   * Every counter an enrolled bench must hold numbers of at `ms`: each series without period, and
   * the current and the next period of each periodic one (a new year or month starts with numbers).
   */
  countersAt(ms: number): CounterPlan[] {
    const out: CounterPlan[] = [];
    for (const s of this.byName.values()) {
      const periods = s.period === 'none' ? [''] : [s.periodAt(ms), s.nextPeriod(s.periodAt(ms))];
      for (const p of periods) out.push({ counter: s.counter(p), series: s, start: s.start, reserve: s.reserve });
    }
    return out;
  }

  /** Counter levels found in a collection's records (demo data): counter -> highest number. */
  levelsIn(coll: string, docs: Doc[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.byName.values()) {
      if (s.coll !== coll) continue;
      for (const d of docs) {
        const raw = d[s.field];
        if (typeof raw !== 'string' && typeof raw !== 'number') continue;
        const m = s.pattern.exec(String(raw));
        if (!m) continue;
        const counter = s.counter(m.groups?.p ?? '');
        const n = Number(m.groups?.n);
        if (Number.isSafeInteger(n) && n > (out[counter] ?? 0)) out[counter] = n;
      }
    }
    return out;
  }
}

/** The registry every module declares its series in. */
export const numberedSeries = new SeriesRegistry();

/** Declare a numbered series when the module that issues it loads. */
export function declareSeries(d: SeriesDeclaration): NumberedSeries {
  return numberedSeries.declare(d);
}

/** Numbers one issue may pass over because a record already holds them before it gives up. */
const MAX_TAKEN_SKIPS = 1000;

/**
 * Issue the next number of a series (of `period`, for a periodic one): the number and the field's value.
 * A number whose record exists already (a keyed series: pushed by a bench, imported, restored, even
 * deleted) is passed over and the next one issued, so a create with it never meets an existing key;
 * past the series' highest number it answers 503 series_exhausted, never a number that lost precision.
 */
export async function issueNumber(tx: Tx, s: NumberedSeries, period = ''): Promise<{ n: number; value: string }> {
  for (let i = 0; i < MAX_TAKEN_SKIPS; i += 1) {
    const n = await tx.next(s.counter(period), { start: s.start });
    if (!s.fits(n, period)) throw seriesExhausted(s.counter(period));
    const value = String(s.format(n, period));
    if (!s.keyed || !(await tx.has(s.coll, value))) return { n, value };
  }
  throw seriesExhausted(s.counter(period));
}

/** 503 for a series that reached its highest number (or whose next numbers are all taken). */
export function seriesExhausted(series: string): DomainError {
  return unavailable('series_exhausted', { series, message: `番号「${series}」はこれ以上発行できません。管理者に連絡してください` });
}

/** A field holding a copy of the number follows it (an inquiry's inquiryId). */
export const mirrorField =
  (field: string) =>
  (doc: Doc, before: string, after: string): Doc =>
    doc[field] === before ? { [field]: after } : {};

/** A log entry's numeric seq follows its number. */
export const followSeq = (doc: Doc, _before: string, _after: string, oldN: number, newN: number): Doc => (doc.seq === oldN ? { seq: newN } : {});

export const padNumber = (n: number, width: number) => String(n).padStart(width, '0');
