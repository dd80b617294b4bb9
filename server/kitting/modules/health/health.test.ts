import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Alert {
  id: string;
  late: boolean;
  ack: boolean;
  acked?: number;
}

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('GET /api/ping', () => {
  it('answers pong with the time and mounted', async () => {
    const before = Date.now();
    const res = await api.get<{ ok: boolean; pong: number; mounted: boolean }>('/api/ping');
    expect(res.body.ok).toBe(true);
    expect(res.body.mounted).toBe(true);
    expect(res.body.pong).toBeGreaterThanOrEqual(before);
  });

  it('creates no workspace and sets no cookie', async () => {
    const res = await server.client().get('/api/ping');
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe('GET /healthz', () => {
  it('answers {status:"ok"} with the database reachable', async () => {
    const res = await api.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: { kind: server.storeKind === 'pg' ? 'postgres' : 'sqlite', reachable: true, schema: expect.any(Number) } });
  });

  it('answers 503 once the database is unreachable', async () => {
    const other = await startTestServer();
    await other.store.health();
    other.store.close();
    const res = await other.client().get('/healthz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'unavailable', database: { reachable: false, schema: null } });
    await other.close();
  });
});

describe('GET /api/ops/today', () => {
  it('lists the seeded ops rows with their fields', async () => {
    const res = await api.get<{ ops: Record<string, unknown>[] }>('/api/ops/today');
    expect(res.body.ops.length).toBeGreaterThan(0);
    for (const row of res.body.ops) {
      expect(row.time).toMatch(/^\d{2}:\d{2}$/);
      for (const k of ['id', 'chip', 'chipLabel', 'title', 'detail', 'status', 'statusColor']) expect(row).toHaveProperty(k);
    }
  });
});

describe('alerts', () => {
  it('counts unacked late alerts', async () => {
    const res = await api.get<{ alerts: Alert[]; lateCount: number }>('/api/alerts');
    expect(res.body.alerts.length).toBeGreaterThan(0);
    expect(res.body.lateCount).toBe(res.body.alerts.filter((a) => a.late && !a.ack).length);
    expect(res.body.lateCount).toBeGreaterThan(0);
  });

  it('POST /api/alert/{id}/ack stamps acked and lowers lateCount', async () => {
    const { alerts, lateCount } = (await api.get<{ alerts: Alert[]; lateCount: number }>('/api/alerts')).body;
    const late = alerts.find((a) => a.late && !a.ack) as Alert;
    const before = Date.now();
    const res = await api.post<{ ok: boolean; alert: Alert }>(`/api/alert/${late.id}/ack`);
    expect(res.body.ok).toBe(true);
    expect(res.body.alert.ack).toBe(true);
    expect(res.body.alert.acked).toBeGreaterThanOrEqual(before);
    expect((await api.get<{ lateCount: number }>('/api/alerts')).body.lateCount).toBe(lateCount - 1);
  });

  it('answers 404 alert not found for an unknown id', async () => {
    const res = await api.post('/api/alert/al-nope/ack');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ok: false, error: 'alert not found' });
  });
});
