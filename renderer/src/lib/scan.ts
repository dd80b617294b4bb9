import { isValidImei, normalizeScan } from '../../../shared/imei';

/** Outcome of one scan (keyboard-wedge scanner or typed input). */
export type ScanResult =
  | { kind: 'empty' }
  | { kind: 'kana'; value: string; message: string }
  | { kind: 'invalid'; value: string; message: string }
  | { kind: 'imei'; value: string };

/**
 * Parse a raw scan: NFKC (full-width digits become ASCII), whitespace and the scanner's
 * Enter/Tab suffix removed, then the IMEI rules (15 digits, Luhn check digit).
 */
export function parseScan(raw: string): ScanResult {
  const { value, kana } = normalizeScan(raw);
  if (kana) {
    return { kind: 'kana', value, message: '日本語入力（IME）がオンのため、かなに変換されました。IMEをオフにして再スキャンしてください。' };
  }
  if (value === '') return { kind: 'empty' };
  if (!/^[0-9]+$/.test(value)) return { kind: 'invalid', value, message: `IMEIは数字のみです（「${value.slice(0, 20)}」は読み取れません）。` };
  if (value.length !== 15) return { kind: 'invalid', value, message: `IMEIは15桁です（読み取り ${value.length}桁）。` };
  if (!isValidImei(value)) return { kind: 'invalid', value, message: 'チェックディジットが一致しません。読み取りミスの可能性があります。再スキャンしてください。' };
  return { kind: 'imei', value };
}

/** True when a key event ends a scan: scanners send Enter or Tab after the code. */
export function isScanTerminator(key: string): boolean {
  return key === 'Enter' || key === 'Tab';
}

