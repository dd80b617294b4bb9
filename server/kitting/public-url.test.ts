import { describe, expect, it } from 'vitest';
import { readConfig, readPublicUrl } from './server-config';

describe('KITTING_PUBLIC_URL', () => {
  it('is optional and kept as an origin with its path, without a trailing slash', () => {
    expect(readConfig({ NODE_ENV: 'test' }).publicUrl).toBeNull();
    expect(readPublicUrl('https://kitting.example.co.jp/')).toBe('https://kitting.example.co.jp');
    expect(readPublicUrl('https://example.co.jp/kitting/')).toBe('https://example.co.jp/kitting');
    expect(readConfig({ NODE_ENV: 'test', KITTING_PUBLIC_URL: 'http://192.0.2.10:4300' }).publicUrl).toBe('http://192.0.2.10:4300');
  });

  it('refuses anything that is not a plain http(s) address, at start', () => {
    for (const bad of ['kitting.example.co.jp', 'ftp://example.co.jp', 'javascript:alert(1)', 'https://user:pw@example.co.jp', 'https://example.co.jp/?a=1', 'https://example.co.jp/#x']) {
      expect(() => readPublicUrl(bad), bad).toThrow(/KITTING_PUBLIC_URL/);
    }
  });
});
