/**
 * Every route, fed input a client can send (junk bodies, wrong types, unknown ids, odd query
 * strings): never a 500, always the JSON error envelope on a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../modules';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer({ mode: 'central', config: { adminPassword: 'fuzz-admin-pw' } });
  api = server.client();
  await api.get('/api/jobs');
});
afterAll(() => server.close());

const junkValues: unknown[] = [null, true, -1, 1e308, 'x'.repeat(5000), ['a', 1], { nested: { deep: [1] } }, '', '0', 'null'];
const fieldNames = ['id', 'name', 'cust', 'custId', 'qty', 'status', 'month', 'amount', 'grid', 'units', 'dir', 'ini', 'run', 'totals', 'lines', 'devices', 'methodKey', 'date', 'state', 'controls', 'steps', 'projects', 'email', 'password', 'text', 'message', 't', 'code', 'planKey', 'config', 'renew', 'fields', 'size', 'count', 'action', 'published', 'claim', 'q', 'map', 'msgs', 'append', 'lead', 'action', 'kind', 'client', 'data', 'slug', 'html', 'rating', 'variant', 'event'];

function bodies(): unknown[] {
  const out: unknown[] = [{}, [], 'text'];
  // Each junk value lands once on every field name, spread over a few bodies.
  for (let i = 0; i < junkValues.length; i += 2) {
    const body: Record<string, unknown> = {};
    fieldNames.forEach((f, j) => (body[f] = junkValues[(i + j) % junkValues.length]));
    out.push(body);
  }
  return out;
}

function fill(path: string, value: string): string {
  return path.replace(/:([A-Za-z]+)/g, () => encodeURIComponent(value));
}

describe('bad input on every route', () => {
  it('never answers 5xx (except the documented 502/503) and always answers JSON errors on /api', async () => {
    const failures: string[] = [];
    const adminToken = (await api.post<{ token?: string }>('/api/admin/login', { password: 'fuzz-admin-pw' })).body.token;
    const headerSets: Record<string, string>[] = [{}, ...(adminToken ? [{ authorization: `Bearer ${adminToken}` }] : []), { authorization: 'Bearer forged.token' }];
    for (const route of allRoutes) {
      const ids = route.path.includes(':') ? ['nope', 'x'.repeat(300), '%E0%A4%A'] : ['-'];
      for (const idValue of ids) {
        const path = fill(route.path, idValue).replace('%25E0%25A4%25A', '%E0%A4%A');
        for (const query of ['', '?months=abc&month=9999&t=forged&token=x&custId=&devices=-5&imei=1&size=xl&site=../x']) {
          for (const headers of route.auth === 'public' ? [{}] : headerSets) {
            const payloads = route.method === 'get' ? [undefined] : bodies();
            for (const body of payloads) {
              const res = await api.request(route.method.toUpperCase(), path + query, body, headers);
              const documented = res.status === 502 || res.status === 503;
              if (res.status >= 500 && !documented) failures.push(`${route.method.toUpperCase()} ${path}${query} ${JSON.stringify(body)?.slice(0, 80)} → ${res.status} ${res.text.slice(0, 120)}`);
              if (res.status >= 400 && path.startsWith('/api/') && res.body !== null && typeof res.body === 'object' && (res.body as { ok?: unknown }).ok !== false) {
                failures.push(`${route.method.toUpperCase()} ${path} → ${res.status} without {ok:false}`);
              }
            }
          }
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
  }, 600_000);
});
