import type { Doc, Store, Tx } from '../../store/types';
import { COMPANY_TEXT_FIELDS, type CompanyTextField } from '../../../../shared/api/contracts/workspace';
import { DEFAULT_TAX_BASIS, TAX_BASES, type TaxBasis } from '../../../../shared/invoice-tax';
import { badRequest } from '../../../core/errors';

/** Company profile, notification prefs and UI state are single records of this collection. */
export const SETTINGS = 'settings';
export const COMPANY_ID = 'company';
export const PREFS_ID = 'prefs';
export const UI_ID = 'ui';

/**
 * The company's document and calendar settings beside its profile texts: how invoice amounts are stated
 * (税抜/税込), how long a quote is valid, and the working calendar capacity planning counts with
 * (working weekdays 0 = Sunday … 6 = Saturday, whether Japanese public holidays are closed, extra closed dates).
 */
export interface CompanyRules {
  taxBasis: TaxBasis;
  quoteValidDays: number;
  workdays: number[];
  holidays: boolean;
  closedDates: string[];
}
export type Company = Record<CompanyTextField, string> & { logo: string } & CompanyRules;

const QUOTE_VALID_DAYS_DEFAULT = 30;
const QUOTE_VALID_DAYS_MAX = 365;
const CLOSED_DATES_MAX = 400;
const DEFAULT_WORKDAYS = [1, 2, 3, 4, 5];
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function readTaxBasisSetting(v: unknown): TaxBasis {
  if (typeof v === 'string' && (TAX_BASES as readonly string[]).includes(v)) return v as TaxBasis;
  throw badRequest('invalid request', { message: `taxBasis: ${TAX_BASES.join('・')} のいずれかで指定してください` });
}

function readQuoteValidDays(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > QUOTE_VALID_DAYS_MAX) throw badRequest('invalid request', { message: `quoteValidDays: 1〜${QUOTE_VALID_DAYS_MAX}日の整数で指定してください` });
  return n;
}

function readWorkdays(v: unknown): number[] {
  if (!Array.isArray(v) || v.length > 7 || !v.every((d) => Number.isInteger(d) && d >= 0 && d <= 6)) {
    throw badRequest('invalid request', { message: 'workdays: 曜日の番号（0=日〜6=土）の配列で指定してください' });
  }
  return [...new Set(v as number[])].sort((a, b) => a - b);
}

function readHolidays(v: unknown): boolean {
  if (typeof v !== 'boolean') throw badRequest('invalid request', { message: 'holidays: true（祝日は休業）か false で指定してください' });
  return v;
}

function readClosedDates(v: unknown): string[] {
  if (!Array.isArray(v) || v.length > CLOSED_DATES_MAX || !v.every((d) => typeof d === 'string' && DATE.test(d))) {
    throw badRequest('invalid request', { message: `closedDates: YYYY-MM-DD の日付の配列（${CLOSED_DATES_MAX}件まで）で指定してください` });
  }
  return [...new Set(v as string[])].sort();
}

/** Readers of the company rules (the settings route and pushed settings). */
export const companyRuleReaders: Record<keyof CompanyRules, (v: unknown) => unknown> = {
  taxBasis: readTaxBasisSetting,
  quoteValidDays: readQuoteValidDays,
  workdays: readWorkdays,
  holidays: readHolidays,
  closedDates: readClosedDates,
};

/** A company logo is a data URL of at most 6 MB. */
export const LOGO_MAX = 6 * 1024 * 1024;
/** The whole UI state document is at most 512 KB (UTF-8 bytes of its JSON). */
export const UI_MAX_BYTES = 512 * 1024;

/** What the plan route stores in the teamPlan record. */
export const PLAN_KEYS = ['starter', 'pro', 'ent'] as const;

/** Words that read as "off" when a form or script sends a string; any other non-empty string is on. */
const FALSE_WORDS = new Set(['', 'false', '0', 'off', 'no', 'n']);

/** Coerced to bool as the contract says: a non-empty string is true unless it spells "off" (false, 0, off, no). */
export function truthy(v: unknown): boolean {
  if (typeof v === 'string') return !FALSE_WORDS.has(v.trim().toLowerCase());
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  return v === true;
}

export function prefsOf(doc: Record<string, unknown> | null) {
  return { emailNotify: doc?.emailNotify === true, slaAlert: doc?.slaAlert === undefined ? true : doc.slaAlert === true };
}

export function uiState(doc: Record<string, unknown> | null): Record<string, string> {
  const state = doc?.state;
  return state && typeof state === 'object' ? (state as Record<string, string>) : {};
}

function emptyCompany(): Company {
  return {
    name: '', brand: '', addr: '', tel: '', email: '', regno: '', rep: '', web: '', bank: '', logo: '',
    taxBasis: DEFAULT_TAX_BASIS,
    quoteValidDays: QUOTE_VALID_DAYS_DEFAULT,
    workdays: [...DEFAULT_WORKDAYS],
    holidays: true,
    closedDates: [],
  };
}

/** Every field present (blank when never set), so readers never meet undefined. */
export function completeCompany(doc: Doc | null): Company {
  const out = emptyCompany();
  if (!doc) return out;
  for (const k of COMPANY_TEXT_FIELDS) if (typeof doc[k] === 'string') out[k] = doc[k] as string;
  if (typeof doc.logo === 'string') out.logo = doc.logo;
  for (const [k, read] of Object.entries(companyRuleReaders)) {
    if (doc[k] === undefined || doc[k] === null) continue;
    try {
      (out as Record<string, unknown>)[k] = read(doc[k]);
    } catch {
      /* a stored value no reader accepts keeps the default */
    }
  }
  return out;
}

export async function readCompany(store: Store, ws: string): Promise<Company> {
  return completeCompany(await store.get(ws, SETTINGS, COMPANY_ID));
}

export async function readCompanyTx(tx: Tx): Promise<Company> {
  return completeCompany(await tx.get(SETTINGS, COMPANY_ID));
}

/**
 * Japanese qualified-invoice issuer number (適格請求書発行事業者登録番号): T + 13-digit
 * corporate number whose first digit is the check digit of the other twelve.
 */
export function isValidRegno(value: string): boolean {
  const m = /^T(\d)(\d{12})$/.exec(value);
  if (!m) return false;
  const digits = m[2].split('').map(Number).reverse();
  const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 1 : 2), 0);
  return Number(m[1]) === 9 - (sum % 9);
}
