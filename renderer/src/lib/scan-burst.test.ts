import { describe, expect, it } from 'vitest';
import { MAX_GAP_MS, MIN_SCAN_LENGTH, isBurst, isHumanPace, isScanDigit, type HeldKey } from './scan-burst';

const keys = (code: string, gap: number, start = 1000): HeldKey[] => [...code].map((key, i) => ({ key, at: start + i * gap }));

describe('keyboard-wedge burst', () => {
  it('15 digits 8 ms apart ending in Enter are a scan', () => {
    const held = keys('353795089752529', 8);
    expect(isBurst(held, 1000 + 15 * 8)).toBe(true);
  });
  it('a person typing 120 ms per key is not a scan', () => {
    const held = keys('353795089752529', 120);
    expect(isBurst(held, 1000 + 15 * 120)).toBe(false);
  });
  it('one pause longer than the scanner gap breaks the burst', () => {
    const held = keys('353795089752529', 8);
    for (let i = 7; i < held.length; i++) held[i] = { key: '8', at: 1000 + 6 * 8 + MAX_GAP_MS + 1 + (i - 7) * 8 };
    expect(isBurst(held, (held[14]?.at ?? 0) + 8)).toBe(false);
  });
  it('one key delayed by a busy PC (under the longest pause) does not break the burst', () => {
    const held = keys('353795089752529', 8);
    for (let i = 7; i < held.length; i++) held[i] = { key: '8', at: 1000 + 6 * 8 + 200 + (i - 7) * 8 };
    expect(isBurst(held, (held[14]?.at ?? 0) + 8)).toBe(true);
  });
  it('three digits typed by a person are recognised as typing; three from a scanner are not', () => {
    expect(isHumanPace(keys('123', 110))).toBe(true);
    expect(isHumanPace(keys('123', 8))).toBe(false);
    expect(isHumanPace(keys('12', 200))).toBe(false);
  });
  it(`fewer than ${MIN_SCAN_LENGTH} digits are typing, not a scan`, () => {
    expect(isBurst(keys('1234567', 5), 1040)).toBe(false);
  });
  it('Enter long after the last digit is not the scanner’s terminator', () => {
    expect(isBurst(keys('353795089752529', 8), 1000 + 14 * 8 + MAX_GAP_MS + 50)).toBe(false);
  });
  it('accepts ASCII and full-width digits only', () => {
    expect(isScanDigit('7')).toBe(true);
    expect(isScanDigit('７')).toBe(true);
    expect(isScanDigit('a')).toBe(false);
    expect(isScanDigit('Enter')).toBe(false);
  });
});
