import { describe, expect, it } from 'vitest';
import { canonicalize } from './jcs';

describe('canonicalize (RFC 8785)', () => {
  it('sorts members by UTF-16 code units at every depth and writes no whitespace', () => {
    expect(canonicalize({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    // RFC 8785 §3.2.3 example: sorting by UTF-16 code units, not code points
    expect(canonicalize({ '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' })).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('serialises numbers as ECMAScript does (RFC 8785 §3.2.2.3)', () => {
    expect(canonicalize([333333333.33333329, 1e30, 4.5, 0.002, 1e-27, -0, 1, 100])).toBe('[333333333.3333333,1e+30,4.5,0.002,1e-27,0,1,100]');
  });

  it('escapes strings minimally and keeps Japanese text as is', () => {
    expect(canonicalize({ s: 'ABC物流\n"\\\u0001' })).toBe('{"s":"ABC物流\\n\\"\\\\\\u0001"}');
  });

  it('refuses what JSON cannot carry instead of dropping it', () => {
    expect(() => canonicalize({ n: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalize({ s: '\ud800' })).toThrow(/surrogate/);
    expect(() => canonicalize(() => 1)).toThrow();
    // an undefined member is absent, as in JSON.stringify
    expect(canonicalize({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});
