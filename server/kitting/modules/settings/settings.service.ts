import type { Doc, Store, Tx } from '../../../core/store/types';
import { COMPANY_TEXT_FIELDS, type CompanyTextField } from '../../../../shared/api/contracts/workspace';

/** Company profile, notification prefs and UI state are single records of this collection. */
export const SETTINGS = 'settings';
export const COMPANY_ID = 'company';
export const PREFS_ID = 'prefs';
export const UI_ID = 'ui';

export type Company = Record<CompanyTextField, string> & { logo: string };

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

export function emptyCompany(): Company {
  return { name: '', brand: '', addr: '', tel: '', email: '', regno: '', rep: '', web: '', bank: '', logo: '' };
}

/** Every field present (blank when never set), so readers never meet undefined. */
export function completeCompany(doc: Doc | null): Company {
  const out = emptyCompany();
  if (!doc) return out;
  for (const k of COMPANY_TEXT_FIELDS) if (typeof doc[k] === 'string') out[k] = doc[k] as string;
  if (typeof doc.logo === 'string') out.logo = doc.logo;
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
