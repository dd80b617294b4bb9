import { z } from 'zod';
import { json } from '../../../../shared/fields';
import { collectionSchema } from '../../http/collection-schema';
import type { Doc } from '../../store/types';
import { isMonth } from '../compliance/compliance.service';

export const ESG = 'esg';
export const ESG_SETTINGS_ID = 'settings';

export interface Figures {
  units: number;
  ret: number;
  reuse: number;
}

export interface Issue {
  code: string;
  message: string;
  [k: string]: unknown;
}

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const round1 = (v: number) => Math.round(v * 10) / 10;
const figuresOf = (d: unknown): Figures => {
  const o = (d && typeof d === 'object' ? d : {}) as Record<string, unknown>;
  return { units: n(o.units), ret: n(o.ret), reuse: n(o.reuse) };
};

/** Japanese fiscal year (April to March) of a YYYY-MM month. */
function fiscalYear(month: string): number {
  const [y, m] = month.split('-').map(Number);
  return m >= 4 ? y : y - 1;
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** Months from `from` through March that ends fiscal year `fy`. */
function monthsToFyEnd(from: string, fy: number): string[] {
  const end = `${fy + 1}-03`;
  const out: string[] = [];
  for (let m = from; m <= end; m = nextMonth(m)) out.push(m);
  return out;
}

export interface EsgInput {
  scope: string;
  months: Doc[];
  settings: { co2e: number; ewaste: number };
  currentMonth: string;
  claim: Record<string, unknown> | null;
}

export function buildEsgReport(input: EsgInput) {
  const issues: Issue[] = [];
  const warnings: string[] = [];
  const { co2e: factor, ewaste } = input.settings;
  if (!(factor > 0)) issues.push({ code: 'factor_not_positive', message: `CO2e係数(${factor})が正の値ではありません`, factor });

  const months = input.months.filter((m) => typeof m.month === 'string').sort((a, b) => String(a.month).localeCompare(String(b.month)));
  const future = months.filter((m) => String(m.month) > input.currentMonth);
  if (future.length) warnings.push(`未来の月のデータ ${future.length} 件は実績に含めていません`);
  const past = months.filter((m) => String(m.month) <= input.currentMonth);

  for (const m of past) {
    const total = figuresOf(m);
    const custs = (m.customers && typeof m.customers === 'object' ? m.customers : {}) as Record<string, unknown>;
    const sum = Object.values(custs).map(figuresOf).reduce((a, f) => ({ units: a.units + f.units, ret: a.ret + f.ret, reuse: a.reuse + f.reuse }), { units: 0, ret: 0, reuse: 0 });
    for (const k of ['units', 'ret', 'reuse'] as const) {
      if (sum[k] !== total[k]) issues.push({ code: 'customer_totals_mismatch', message: `${String(m.month)} の顧客別${k}合計 ${sum[k]} が月次合計 ${total[k]} と一致しません`, month: m.month, field: k, customers: sum[k], monthly: total[k] });
    }
    const scoped = input.scope === 'center' ? total : figuresOf(custs[input.scope]);
    if (scoped.reuse > scoped.ret) issues.push({ code: 'reuse_exceeds_returns', message: `${String(m.month)} の再利用台数 ${scoped.reuse} が回収台数 ${scoped.ret} を超えています`, month: m.month });
  }

  const actualThrough = past.length ? String(past[past.length - 1].month) : null;
  const fy = fiscalYear(actualThrough ?? input.currentMonth);
  const inFy = past.filter((m) => fiscalYear(String(m.month)) === fy);
  const scopedRows = inFy.map((m) => (input.scope === 'center' ? figuresOf(m) : figuresOf((m.customers as Record<string, unknown> | undefined)?.[input.scope])));
  if (input.scope !== 'center' && !inFy.some((m) => (m.customers as Record<string, unknown> | undefined)?.[input.scope])) warnings.push(`「${input.scope}」の実績データがありません`);
  if (!actualThrough) warnings.push('実績データがありません');

  const actual = scopedRows.reduce((a, f) => ({ units: a.units + f.units, ret: a.ret + f.ret, reuse: a.reuse + f.reuse }), { units: 0, ret: 0, reuse: 0 });
  const forecastFrom = actualThrough && nextMonth(actualThrough) <= `${fy + 1}-03` ? nextMonth(actualThrough) : null;
  const remaining = forecastFrom ? monthsToFyEnd(forecastFrom, fy).length : 0;
  const perMonth = scopedRows.length ? { units: actual.units / scopedRows.length, reuse: actual.reuse / scopedRows.length } : { units: 0, reuse: 0 };
  if (scopedRows.length > 0 && scopedRows.length < 3) warnings.push(`予測は実績 ${scopedRows.length} か月分の平均に基づくため誤差が大きくなります`);
  const forecastUnits = Math.round(perMonth.units * remaining);
  const forecastReuse = Math.round(perMonth.reuse * remaining);
  const actualCo2e = round1(actual.reuse * factor);
  const forecastCo2e = round1(forecastReuse * factor);

  const doc = {
    scope: input.scope,
    fy: `FY${fy}`,
    actualThrough,
    forecastFrom,
    units: actual.units,
    ret: actual.ret,
    co2e: actualCo2e,
    ewasteKg: round1(actual.reuse * ewaste),
    circularity: actual.ret > 0 ? round1((actual.reuse / actual.ret) * 100) : null,
    actualUnits: actual.units,
    forecastUnits,
    actualCo2e,
    forecastCo2e,
    settings: { co2e: factor, ewaste },
    basis: `実績は${actualThrough ?? '—'}までの月次記録(${scopedRows.length}か月)。予測は実績の月平均×残り${remaining}か月。CO2e削減量は再利用台数×${factor}kg-CO2e/台、E-waste削減量は再利用台数×${ewaste}kg/台。実績と予測は合算していません。`,
  };

  const claim = input.claim;
  if (claim) {
    const check = (key: string, actualValue: number, tolerance = 0) => {
      const v = claim[key];
      if (v === undefined || v === null) return;
      const c = Number(v);
      if (!Number.isFinite(c) || Math.abs(c - actualValue) > tolerance) {
        const summed = key === 'units' && c === doc.actualUnits + doc.forecastUnits && doc.forecastUnits > 0;
        issues.push({
          code: summed ? 'actual_forecast_summed' : 'claim_mismatch',
          message: summed ? `申告値 ${key}=${String(v)} は実績と予測を合算しています(実績 ${actualValue})` : `申告値 ${key}=${String(v)} が算出値 ${actualValue} と一致しません`,
          field: key,
          claimed: v,
          actual: actualValue,
        });
      }
    };
    check('units', doc.units);
    check('actualUnits', doc.actualUnits);
    check('forecastUnits', doc.forecastUnits);
    check('co2e', doc.co2e, 0.05);
    check('factor', factor, 1e-9);
  }
  return { issues, warnings, doc };
}

const units = z.number().int().nonnegative();
const factor = z.number().nonnegative().max(1_000_000);
/** The CO2e factor must be positive: the report refuses to issue without one (factor_not_positive). */
const co2eFactor = factor.positive();
/**
 * ESG records are the center's own figures (no route writes them): the settings record's factors (kg per
 * reused device: CO2e positive, e-waste never negative) and monthly records of whole, non-negative counts, per customer likewise.
 * A pushed record has exactly the fields the report reads, so it can never hold text where a count belongs.
 */
export const esgSchema = collectionSchema(ESG, {}, {
  co2e: json(co2eFactor),
  ewaste: json(factor),
  month: json(z.string().refine(isMonth, 'month must be YYYY-MM')),
  units: json(units),
  ret: json(units),
  reuse: json(units),
  customers: json(z.record(z.string().min(1).max(120), z.strictObject({ units, ret: units, reuse: units })).refine((c) => Object.keys(c).length <= 10_000, 'too many customers')),
});
