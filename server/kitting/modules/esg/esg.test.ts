import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

type Row = { id: string; month?: string; units: number; ret: number; reuse: number; co2e?: number; customers?: Record<string, { units: number; ret: number; reuse: number }> };
const seed = JSON.parse(readFileSync(new URL('../../../../seeds/esg.json', import.meta.url), 'utf8')) as Row[];
const months = seed.filter((r) => r.month);
const factor = seed[0].co2e as number;

interface EsgDoc {
  scope: string;
  fy: string;
  actualThrough: string;
  forecastFrom: string;
  units: number;
  ret: number;
  co2e: number;
  circularity: number;
  actualUnits: number;
  forecastUnits: number;
  actualCo2e: number;
  forecastCo2e: number;
  settings: { co2e: number; ewaste: number };
  basis: string;
}

function atNov2026() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-15T03:00:00Z'));
}

async function workspaceOf(client: Client): Promise<string> {
  const raw = decodeURIComponent(client.cookie('kit_tid') ?? '');
  return raw.slice(0, raw.lastIndexOf('.'));
}

describe('POST /api/esg/report', () => {
  it('reports actuals and a separate forecast for the fiscal year, never summed', async () => {
    atNov2026();
    const res = await server.client().post<{ ok: boolean; warnings: string[]; doc: EsgDoc }>('/api/esg/report', {});
    expect(res.status).toBe(200);
    const units = months.reduce((a, m) => a + m.units, 0);
    const ret = months.reduce((a, m) => a + m.ret, 0);
    const reuse = months.reduce((a, m) => a + m.reuse, 0);
    const d = res.body.doc;
    expect(d).toMatchObject({ scope: 'center', fy: 'FY2026', actualThrough: '2026-10', forecastFrom: '2026-11', units, ret, actualUnits: units });
    expect(d.forecastUnits).toBe(Math.round((units / 7) * 5));
    expect(d.units).not.toBe(d.actualUnits + d.forecastUnits);
    expect(d.co2e).toBeCloseTo(reuse * factor, 1);
    expect(d.actualCo2e).toBe(d.co2e);
    expect(d.forecastCo2e).toBeCloseTo(Math.round((reuse / 7) * 5) * factor, 1);
    expect(d.circularity).toBeCloseTo((reuse / ret) * 100, 1);
    expect(d.settings.co2e).toBe(factor);
    expect(res.body.warnings).toEqual([]);
  });

  it('scopes to one customer', async () => {
    atNov2026();
    const name = 'ABC物流株式会社';
    const res = await server.client().post<{ doc: EsgDoc }>('/api/esg/report', { scope: name });
    expect(res.body.doc.scope).toBe(name);
    expect(res.body.doc.units).toBe(months.reduce((a, m) => a + (m.customers?.[name]?.units ?? 0), 0));
  });

  it('warns without blocking when a scope has no data', async () => {
    atNov2026();
    const res = await server.client().post<{ ok: boolean; warnings: string[]; doc: EsgDoc }>('/api/esg/report', { scope: '未登録の顧客' });
    expect(res.status).toBe(200);
    expect(res.body.warnings.length).toBeGreaterThan(0);
    expect(res.body.doc.units).toBe(0);
  });

  it('answers 422 when a claim disagrees or sums actual and forecast', async () => {
    atNov2026();
    const api = server.client();
    const ok = (await api.post<{ doc: EsgDoc }>('/api/esg/report', {})).body.doc;
    expect((await api.post('/api/esg/report', { claim: { units: ok.units, co2e: ok.co2e, factor, forecastUnits: ok.forecastUnits } })).status).toBe(200);
    const summed = await api.post<{ ok: boolean; issues: { code: string }[]; warnings: string[] }>('/api/esg/report', { claim: { units: ok.actualUnits + ok.forecastUnits } });
    expect(summed.status).toBe(422);
    expect(summed.body.ok).toBe(false);
    expect(summed.body.issues.map((i) => i.code)).toEqual(['actual_forecast_summed']);
    expect(Array.isArray(summed.body.warnings)).toBe(true);
    const co2 = await api.post<{ issues: { code: string; field: string }[] }>('/api/esg/report', { claim: { co2e: ok.co2e + 10, factor: 1 } });
    expect(co2.body.issues.map((i) => i.field)).toEqual(['co2e', 'factor']);
  });

  it('answers 422 when customer totals disagree, reuse exceeds returns or the factor is not positive', async () => {
    atNov2026();
    const api = server.client();
    await api.get('/api/network/oem');
    const ws = await workspaceOf(api);
    await server.store.transact(ws, (tx) => tx.patch('esg', '2026-05', { units: 1 }));
    let res = await api.post<{ issues: { code: string }[] }>('/api/esg/report', {});
    expect(res.status).toBe(422);
    expect(res.body.issues.map((i) => i.code)).toEqual(['customer_totals_mismatch']);
    await server.store.transact(ws, (tx) => tx.patch('esg', '2026-05', { units: months[1].units }));
    const june = months[2];
    await server.store.transact(ws, (tx) => tx.patch('esg', '2026-06', { reuse: june.ret + 1, customers: { x: { units: june.units, ret: june.ret, reuse: june.ret + 1 } } }));
    res = await api.post<{ issues: { code: string }[] }>('/api/esg/report', {});
    expect(res.body.issues.map((i) => i.code)).toEqual(['reuse_exceeds_returns']);
    await server.store.transact(ws, (tx) => tx.patch('esg', '2026-06', { reuse: june.reuse, customers: june.customers ?? {} }));
    await server.store.transact(ws, (tx) => tx.patch('esg', 'settings', { co2e: 0 }));
    res = await api.post<{ issues: { code: string }[] }>('/api/esg/report', {});
    expect(res.body.issues.map((i) => i.code)).toEqual(['factor_not_positive']);
  });
});
