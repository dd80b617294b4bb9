import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
interface Device {
  imei: string;
  model: string;
}

let central: TestServer;
let bench: TestServer;
let owner: Client;
let ui: Client;
const savedBlock = process.env.KITTING_LEASE_BLOCK;

beforeAll(async () => {
  process.env.KITTING_LEASE_BLOCK = '5';
  central = await startTestServer({ mode: 'central' });
  bench = await startTestServer({ mode: 'bench' });
  owner = central.client();
  ui = bench.client();
  await owner.get('/api/devices');
});
afterAll(async () => {
  if (savedBlock === undefined) delete process.env.KITTING_LEASE_BLOCK;
  else process.env.KITTING_LEASE_BLOCK = savedBlock;
  await bench.close();
  await central.close().catch(() => undefined);
});

describe('bench sync routes', () => {
  it('GET /api/sync/status answers not enrolled before enrolment', async () => {
    const res = await ui.get<Body>('/api/sync/status');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, enrolled: false, central: null, pending: 0, lastPush: null, lastPull: null, lastError: null });
    expect((await ui.post<Body>('/api/sync/now')).status).toBe(409);
  });

  it('POST /api/sync/enrol refuses a wrong code and changes nothing', async () => {
    const res = await ui.post<Body>('/api/sync/enrol', { central: central.url, code: 'WRONG-CODE' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('enrol_code_invalid');
    expect((await ui.get<Body>('/api/sync/status')).body.enrolled).toBe(false);
  });

  it('POST /api/sync/enrol binds the bench to the central workspace and brings its records along', async () => {
    const local = await ui.post<Body & { device: Device }>('/api/device', { model: 'Pixel 9', note: '登録前の端末' });
    expect(local.status).toBe(200);
    const centralBefore = (await owner.get<Body & { devices: Device[] }>('/api/devices')).body.devices.length;
    const { code } = (await owner.post<Body & { code: string }>('/api/sync/enrol-code')).body;
    const res = await ui.post<Body>('/api/sync/enrol', { central: central.url, code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enrolled: true, central: central.url, pending: 0, lastError: null });
    expect(bench.ctx.benchWorkspace).toBe(res.body.workspace);
    // Central now has the bench's device, and the demo rows were not duplicated.
    const onCentral = (await owner.get<Body & { devices: Device[] }>('/api/devices')).body.devices;
    expect(onCentral).toHaveLength(centralBefore + 1);
    expect(onCentral.find((d) => d.imei === local.body.device.imei)?.model).toBe('Pixel 9');
    expect((await ui.get<Body & { devices: Device[] }>('/api/devices')).body.devices).toHaveLength(centralBefore + 1);
    expect((await ui.post<Body>('/api/sync/enrol', { central: central.url, code })).status).toBe(409);
  });

  it('POST /api/sync/now carries edits both ways', async () => {
    const d = (await owner.post<Body & { device: Device }>('/api/device', { model: 'iPad Air' })).body.device;
    const t = (await ui.post<Body & { ticket: { id: string } }>('/api/ticket', { subject: '画面割れ' })).body.ticket;
    const res = await ui.post<Body & { pending: number; lastPush: string; lastPull: string }>('/api/sync/now');
    expect(res.status).toBe(200);
    expect(res.body.pending).toBe(0);
    expect(Date.parse(res.body.lastPush)).toBeGreaterThan(0);
    expect(Date.parse(res.body.lastPull)).toBeGreaterThan(0);
    expect((await ui.get<Body & { devices: Device[] }>('/api/devices')).body.devices.map((x) => x.imei)).toContain(d.imei);
    const tickets = (await owner.get<Body & { tickets: { id: string }[] }>('/api/tickets')).body.tickets;
    expect(tickets.map((x) => x.id)).toContain(t.id);
  });

  it('offline, issues shipment numbers from its block, then from its reserve, and answers 503 only when both are spent', async () => {
    const status = await ui.get<Body & { leases: { series: string; remaining: number; reserve: number }[] }>('/api/sync/status');
    const lease = status.body.leases.find((l) => l.series === 'shipment');
    expect(lease?.remaining).toBeGreaterThan(0);
    expect(lease?.reserve).toBe(500);
    const left = (lease?.remaining ?? 0) + (lease?.reserve ?? 0);
    await central.close({ keepData: true });
    const ids: string[] = [];
    for (let i = 0; i < left; i += 1) {
      const res = await ui.post<Body & { shipment: { id: string } }>('/api/shipment', { customer: 'オフライン' });
      expect(res.status).toBe(200);
      ids.push(res.body.shipment.id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^SHP-\d{4,}$/.test(id))).toBe(true);
    const after = await ui.get<Body & { leases: { series: string; remaining: number; reserve: number }[] }>('/api/sync/status');
    expect(after.body.leases.find((l) => l.series === 'shipment')).toMatchObject({ remaining: 0, reserve: 0 });
    const refused = await ui.post<Body & { series: string; message: string }>('/api/shipment', { customer: 'オフライン' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ ok: false, error: 'series_exhausted', series: 'shipment' });
    expect(refused.body.message).toContain('shipment');
    const failed = await ui.post<Body & { pending: number }>('/api/sync/now');
    expect(failed.status).toBe(503);
    expect(failed.body.pending).toBeGreaterThan(0);
  });
});
