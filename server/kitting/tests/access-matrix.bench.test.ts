/**
 * Role × route matrix on the headless bench (`npm start` in bench mode), from the same `auth`
 * declarations as the central matrix: the bench's own operator (a loopback page of the bench) gets
 * exactly what policy.ts gives the local operator, the routes of a central server
 * (bench tokens, platform operators) answer 404,
 * and on every route a page of another site (cross-site Origin or Sec-Fetch-Site, DNS-rebound Host,
 * HTML form content types) is refused with nothing stored.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../modules';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { PLATFORM_WS } from '../modules/platform-collections';
import { allows } from '../security/policy';

let bench: TestServer;
let ws = '';
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench', config: { adminPassword: 'matrix-admin-pw' } });
  ws = bench.ctx.benchWorkspace ?? '';
}, 120_000);
afterAll(() => bench.close());

/** Accesses only a central server grants (bench tokens, the platform admin and sub-admins). */
const CENTRAL_ONLY = new Set<string>(['bench', 'admin', 'subadmin', 'subadmin:canDelete']);
const fill = (path: string) => path.replace(/:([A-Za-z]+)/g, 'matrix-x');
const seqs = async () => [await bench.store.replica.lastSeq(ws), await bench.store.replica.lastSeq(PLATFORM_WS)];
const changed = (a: number[], b: number[]) => a[0] !== b[0] || a[1] !== b[1];

/** A request with a Host header of the caller's choosing (fetch never lets one set it; a rebound browser sends the attacker's). */
function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const url = new URL(bench.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(url.port), path, method, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('role × route matrix on the headless bench', () => {
  it('runs in bench mode, with bench-only routes among those checked', () => {
    expect(bench.ctx.mode).toBe('bench');
    expect(ws).not.toBe('');
    expect(allRoutes.filter((r) => r.auth === 'local').length).toBeGreaterThan(0);
  });

  it("gives the bench's operator exactly what the table gives the local operator; central-only routes answer 404", async () => {
    const wrong: string[] = [];
    const operator = bench.client();
    for (const route of allRoutes) {
      const method = route.method.toUpperCase();
      const path = fill(route.path);
      const body = route.method === 'get' ? undefined : {};
      const before = await seqs();
      const res = await operator.request(method, path, body, { origin: bench.url, 'sec-fetch-site': 'same-origin' });
      const b = (res.body ?? {}) as { need?: string; error?: string };
      const refusedByLayer = (res.status === 401 || res.status === 403) && b.need === route.auth;
      if (CENTRAL_ONLY.has(route.auth)) {
        // bench tokens and platform operators are a central server's business: a bench knows no such route
        if (res.status !== 404) wrong.push(`${method} ${route.path} [${route.auth}] answered ${res.status} on a bench`);
        if (changed(before, await seqs())) wrong.push(`${method} ${route.path} [${route.auth}] stored something on a bench`);
        continue;
      }
      if (res.status === 403 && (b.error === 'cross_site_request' || b.error === 'host_not_allowed')) {
        wrong.push(`${method} ${route.path} refused the operator's own page: ${b.error}`);
        continue;
      }
      const expected = allows(route.auth, { kind: 'local' }) || route.auth === 'public' || route.auth === 'token';
      if (expected && refusedByLayer) wrong.push(`${method} ${route.path} [${route.auth}] refused the operator: ${res.status} ${res.text.slice(0, 80)}`);
      if (!expected) {
        if (!refusedByLayer) wrong.push(`${method} ${route.path} [${route.auth}] let the operator through: ${res.status} ${res.text.slice(0, 80)}`);
        if (changed(before, await seqs())) wrong.push(`${method} ${route.path} [${route.auth}] stored something for the operator`);
      }
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  it('refuses other sites on every state-changing route and a rebound Host on every route, storing nothing', async () => {
    const wrong: string[] = [];
    const page = bench.client();
    const host = `127.0.0.1:${new URL(bench.url).port}`;
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example', 'content-type': 'application/json' },
      { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      { origin: 'https://evil.example', 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ];
    for (const route of allRoutes) {
      const method = route.method.toUpperCase();
      const path = fill(route.path);
      const before = await seqs();
      const rebound = await rawRequest(method, path, { host: `attacker.example:${new URL(bench.url).port}`, 'content-type': 'application/json' }, method === 'GET' ? undefined : '{}');
      if (rebound.status !== 403 || !rebound.text.includes('host_not_allowed')) wrong.push(`${method} ${route.path} answered a rebound Host: ${rebound.status}`);
      if (method !== 'GET') {
        for (const headers of foreign) {
          const res = await page.request(method, path, headers['content-type'] === 'application/json' ? {} : undefined, headers);
          if (res.status !== 403 && res.status !== 415) wrong.push(`${method} ${route.path} answered a foreign page (${JSON.stringify(headers)}): ${res.status}`);
        }
        const raw = await rawRequest(method, path, { host, origin: 'https://evil.example', 'content-type': 'text/plain' }, 'a=1');
        if (raw.status !== 403) wrong.push(`${method} ${route.path} answered a cross-site form post: ${raw.status}`);
      }
      if (changed(before, await seqs())) wrong.push(`${method} ${route.path} stored something for another site`);
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});
