/**
 * Keyboard-wedge burst rules, free of the DOM so they can be tested alone.
 *
 * A scanner "types" the code at machine speed (a few ms per key) and ends it with Enter or Tab.
 * A person typing digits leaves 100 ms or more between keys. A burst is at least MIN_SCAN_LENGTH
 * digits whose mean interval is at most SCANNER_MEAN_GAP_MS, with no single pause longer than
 * MAX_GAP_MS (a busy PC may delay one key, never the whole code), ended by Enter or Tab.
 */
const SCANNER_MEAN_GAP_MS = 60;
export const MAX_GAP_MS = 250;
export const MIN_SCAN_LENGTH = 8;
/** Digits held before the pace of typing can be judged. */
const PACE_SAMPLE = 3;

/** Digits a wedge scanner sends (ASCII, or full-width when the keyboard layout is Japanese). */
export function isScanDigit(key: string): boolean {
  return /^[0-9０-９]$/.test(key);
}

export interface HeldKey {
  key: string;
  at: number;
}

function meanGap(held: readonly HeldKey[]): number {
  const first = held[0];
  const last = held[held.length - 1];
  return first && last && held.length > 1 ? (last.at - first.at) / (held.length - 1) : 0;
}

/** True when the held keys (all digits) arrived as one scanner burst ending at `endAt`. */
export function isBurst(held: readonly HeldKey[], endAt: number): boolean {
  if (held.length < MIN_SCAN_LENGTH) return false;
  for (let i = 1; i < held.length; i++) {
    const prev = held[i - 1];
    const cur = held[i];
    if (!prev || !cur || cur.at - prev.at > MAX_GAP_MS) return false;
  }
  const last = held[held.length - 1];
  return !!last && endAt - last.at <= MAX_GAP_MS && meanGap(held) <= SCANNER_MEAN_GAP_MS;
}

/** True once enough digits are held to tell that a person is typing them. */
export function isHumanPace(held: readonly HeldKey[]): boolean {
  return held.length >= PACE_SAMPLE && meanGap(held) > SCANNER_MEAN_GAP_MS;
}

/** Where a key went: the element kinds the scan service treats differently. */
export type FocusKind = 'scan-field' | 'editable' | 'other';
