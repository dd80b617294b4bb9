import { describe, it, expect } from 'vitest';
import { generateImei, isValidImei, luhnCheckDigit, normalizeScan } from './imei';

describe('luhnCheckDigit / isValidImei', () => {
  it('computes the check digit of known IMEIs', () => {
    expect(luhnCheckDigit('49015420323751')).toBe(8);
    expect(luhnCheckDigit('35209900176148')).toBe(1);
    expect(luhnCheckDigit('00000000000000')).toBe(0);
  });

  it('accepts valid IMEIs', () => {
    expect(isValidImei('490154203237518')).toBe(true);
    expect(isValidImei('352099001761481')).toBe(true);
  });

  it('rejects a wrong check digit, wrong length and non-ASCII digits', () => {
    expect(isValidImei('490154203237517')).toBe(false);
    expect(isValidImei('49015420323751')).toBe(false);
    expect(isValidImei('4901542032375180')).toBe(false);
    expect(isValidImei('４９０１５４２０３２３７５１８')).toBe(false);
    expect(isValidImei('49015420323751a')).toBe(false);
    expect(isValidImei(' 490154203237518')).toBe(false);
    expect(isValidImei('')).toBe(false);
  });

  it('throws on a body that is not 14 digits', () => {
    expect(() => luhnCheckDigit('123')).toThrow(RangeError);
    expect(() => luhnCheckDigit('4901542032375a')).toThrow(RangeError);
  });
});

describe('generateImei', () => {
  it('produces valid 15-digit IMEIs with a 35 TAC prefix', () => {
    for (let i = 0; i < 500; i++) {
      const imei = generateImei();
      expect(imei).toMatch(/^35[0-9]{13}$/);
      expect(isValidImei(imei)).toBe(true);
    }
  });

  it('is deterministic for a given random source and survives edge values', () => {
    const seq = (vals: number[]) => {
      let i = 0;
      return () => vals[i++ % vals.length]!;
    };
    const a = generateImei(seq([0.1, 0.5, 0.9, 0.3]));
    const b = generateImei(seq([0.1, 0.5, 0.9, 0.3]));
    expect(a).toBe(b);
    expect(isValidImei(generateImei(() => 0))).toBe(true);
    expect(isValidImei(generateImei(() => 0.9999999999))).toBe(true);
    expect(isValidImei(generateImei(() => 1))).toBe(true); // out-of-contract value is clamped
  });
});

describe('normalizeScan', () => {
  it('turns full-width digits into ASCII and drops the trailing Enter/Tab', () => {
    expect(normalizeScan('４９０１５４２０３２３７５１８\r\n')).toEqual({ value: '490154203237518', kana: false });
    expect(normalizeScan('490154203237518\t')).toEqual({ value: '490154203237518', kana: false });
    expect(normalizeScan('490154203237518\n')).toEqual({ value: '490154203237518', kana: false });
  });

  it('strips ASCII and ideographic whitespace', () => {
    expect(normalizeScan(' 4901 5420\u30003237518 ').value).toBe('490154203237518');
  });

  it('keeps a clean ASCII scan unchanged', () => {
    expect(normalizeScan('HK-26-12')).toEqual({ value: 'HK-26-12', kana: false });
  });

  it('flags kana produced by a Japanese IME', () => {
    expect(normalizeScan('ぬふあうえお').kana).toBe(true); // hiragana (kana-input layout)
    expect(normalizeScan('ヌフアウエオ').kana).toBe(true); // katakana
    expect(normalizeScan('ﾇﾌｱｳｴｵ').kana).toBe(true); // half-width katakana
    expect(normalizeScan('ﾇﾌｱｳｴｵ').value).toBe('ヌフアウエオ'); // NFKC widens half-width kana
    expect(normalizeScan('4901ぬふ').kana).toBe(true);
    expect(normalizeScan('４９０１').kana).toBe(false);
    expect(normalizeScan('')).toEqual({ value: '', kana: false });
  });

  it('does not treat kanji or Latin text as kana', () => {
    expect(normalizeScan('端末ABC').kana).toBe(false);
  });
});
