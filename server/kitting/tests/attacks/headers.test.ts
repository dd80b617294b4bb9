/**
 * Attack (issue 26): the UI could be framed by another site (clickjacking a bench's own same-origin calls)
 * and the portal token in `?t=` leaked through Referer. Every served page now says no.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let central: TestServer;
let bench: TestServer;
beforeAll(async () => {
  central = await startTestServer();
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(async () => {
  await central.close();
  await bench.close();
});

const PAGES = ['/', '/admin.html', '/portal.html?t=secret-portal-token', '/api/ping', '/healthz'];

describe('every served page refuses framing, sniffing, referrers and foreign scripts', () => {
  for (const mode of ['central', 'bench'] as const) {
    it.each(PAGES)(`${mode} %s`, async (path) => {
      const server = mode === 'central' ? central : bench;
      const res = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    });
  }
});
