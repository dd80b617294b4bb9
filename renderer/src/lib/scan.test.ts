import { describe, expect, it } from 'vitest';
import { generateImei } from '../../../shared/imei';
import { isScanTerminator, parseScan } from './scan';

describe('parseScan', () => {
  it('accepts a Luhn-valid 15-digit IMEI with the scanner suffix', () => {
    expect(parseScan('353795089752529\n')).toEqual({ kind: 'imei', value: '353795089752529' });
    expect(parseScan('353795089752529\t')).toEqual({ kind: 'imei', value: '353795089752529' });
  });

  it('normalises full-width digits (NFKC)', () => {
    expect(parseScan('３５３７９５０８９７５２５２９')).toEqual({ kind: 'imei', value: '353795089752529' });
  });

  it('rejects a wrong check digit', () => {
    const r = parseScan('353795089752528');
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') expect(r.message).toContain('チェックディジット');
  });

  it('rejects a wrong length and says how many digits were read', () => {
    const r = parseScan('35379508975252');
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') expect(r.message).toContain('14桁');
  });

  it('rejects letters', () => {
    expect(parseScan('35379508975252A').kind).toBe('invalid');
  });

  it('warns when an IME turned the scan into kana', () => {
    const r = parseScan('さごなら');
    expect(r.kind).toBe('kana');
    if (r.kind === 'kana') expect(r.message).toContain('IME');
  });

  it('treats blank input as empty', () => {
    expect(parseScan('  \t')).toEqual({ kind: 'empty' });
  });

  it('accepts every generated IMEI', () => {
    for (let i = 0; i < 50; i++) expect(parseScan(generateImei()).kind).toBe('imei');
  });
});

describe('isScanTerminator', () => {
  it('ends a scan on Enter or Tab only', () => {
    expect(isScanTerminator('Enter')).toBe(true);
    expect(isScanTerminator('Tab')).toBe(true);
    expect(isScanTerminator('5')).toBe(false);
  });
});
