/**
 * IMEI helpers shared by the server, the bench app and the seed generator.
 *
 * Pure TypeScript: no node:, electron or DOM imports, so it can run anywhere.
 */

const DIGITS_14 = /^[0-9]{14}$/;
const DIGITS_15 = /^[0-9]{15}$/;

/**
 * Luhn check digit for the 14-digit IMEI body (TAC + serial number).
 * Throws a RangeError when the input is not exactly 14 ASCII digits.
 */
export function luhnCheckDigit(body14: string): number {
  if (typeof body14 !== 'string' || !DIGITS_14.test(body14)) {
    throw new RangeError('luhnCheckDigit: expected exactly 14 ASCII digits');
  }
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = body14.charCodeAt(i) - 48;
    // The check digit will sit at position 15, so counting from the right
    // every digit at an odd 0-based index (from the left) is doubled.
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when `s` is exactly 15 ASCII digits whose last digit is the Luhn check digit. */
export function isValidImei(s: string): boolean {
  if (typeof s !== 'string' || !DIGITS_15.test(s)) return false;
  return luhnCheckDigit(s.slice(0, 14)) === s.charCodeAt(14) - 48;
}

function randomDigit(random: () => number): number {
  const r = random();
  const d = Math.floor((Number.isFinite(r) ? r : 0) * 10);
  return d < 0 ? 0 : d > 9 ? 9 : d;
}

/**
 * A fresh, Luhn-valid 15-digit IMEI: a plausible 8-digit TAC starting with 35
 * (the common GSMA reporting-body prefix), a 6-digit serial and the check digit.
 * Pass a seeded PRNG for deterministic output.
 */
export function generateImei(random: () => number = Math.random): string {
  let body = '35';
  for (let i = 0; i < 12; i++) body += String(randomDigit(random));
  return body + String(luhnCheckDigit(body));
}

// Hiragana, katakana (incl. prolonged sound mark), katakana phonetic extensions,
// half-width katakana. Half-width forms are already folded by NFKC, kept for safety.
const KANA = /[\u3041-\u309F\u30A0-\u30FF\u31F0-\u31FF\uFF66-\uFF9F]/;

/**
 * Clean up a barcode-scanner / keyboard-wedge input.
 * - NFKC normalisation (full-width digits and letters become ASCII),
 * - all whitespace removed (this also drops the trailing Tab / Enter the scanner sends),
 * - kana=true when the text contains hiragana or katakana, i.e. a Japanese IME
 *   was active and turned the scan into kana; the caller should ask for a rescan.
 */
export function normalizeScan(raw: string): { value: string; kana: boolean } {
  const src = typeof raw === 'string' ? raw : String(raw ?? '');
  const nfkc = src.normalize('NFKC');
  const value = nfkc.replace(/[\s\u200B\uFEFF]+/g, '');
  const kana = KANA.test(src) || KANA.test(nfkc);
  return { value, kana };
}
