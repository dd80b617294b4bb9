/**
 * Keyboard-wedge burst rules, free of the DOM so they can be tested alone.
 *
 * A scanner "types" the code at machine speed (a few ms per key) and ends it with Enter or Tab.
 * A person typing digits leaves 100 ms or more between keys. Digits that arrive closer together
 * than BURST_GAP_MS belong to one burst; a terminator after at least MIN_SCAN_LENGTH such digits
 * is a scan.
 */
export const BURST_GAP_MS = 80;
export const MIN_SCAN_LENGTH = 8;

/** Digits a wedge scanner sends (ASCII, or full-width when the keyboard layout is Japanese). */
export function isScanDigit(key: string): boolean {
  return /^[0-9０-９]$/.test(key);
}

export interface HeldKey {
  key: string;
  at: number;
}

/** True when the held keys (all digits) arrived as one scanner burst ending at `endAt`. */
export function isBurst(held: readonly HeldKey[], endAt: number): boolean {
  if (held.length < MIN_SCAN_LENGTH) return false;
  for (let i = 1; i < held.length; i++) {
    const prev = held[i - 1];
    const cur = held[i];
    if (!prev || !cur || cur.at - prev.at > BURST_GAP_MS) return false;
  }
  const last = held[held.length - 1];
  return !!last && endAt - last.at <= BURST_GAP_MS;
}

/** Where a key went: the element kinds the scan service treats differently. */
export type FocusKind = 'scan-field' | 'editable' | 'other';
