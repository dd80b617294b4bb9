import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Shipment {
  id: string;
  late: boolean;
  created: number;
  updated: number;
  date: string;
  kind: string;
  customer: string;
  detail: string;
  carrier: string;
  status: string;
}
type ShipmentBody = { ok: boolean; shipment: Shipment };

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('shipments', () => {
  it('GET /api/shipments lists the seeded shipments', async () => {
    const res = await api.get<{ shipments: Shipment[] }>('/api/shipments');
    expect(res.body.shipments.length).toBeGreaterThan(0);
    expect(res.body.shipments.every((s) => /^SHP-\d{4}$/.test(s.id))).toBe(true);
  });

  it('POST /api/shipment numbers SHP-#### after the seeded ones and stamps created/updated', async () => {
    const seeded = (await api.get<{ shipments: Shipment[] }>('/api/shipments')).body.shipments;
    const maxSeeded = Math.max(...seeded.map((s) => Number(s.id.slice(4))));
    const res = await api.post<ShipmentBody>('/api/shipment', { kind: 'in', customer: 'ABC物流株式会社', date: '11/30', carrier: '佐川急便', late: true });
    const s = res.body.shipment;
    expect(s.id).toBe(`SHP-${String(maxSeeded + 1).padStart(4, '0')}`);
    expect(s).toMatchObject({ kind: 'in', customer: 'ABC物流株式会社', date: '11/30', carrier: '佐川急便', late: true, status: '予定' });
    expect(s.created).toBe(s.updated);
    const next = (await api.post<ShipmentBody>('/api/shipment', {})).body.shipment;
    expect(next.id).toBe(`SHP-${String(maxSeeded + 2).padStart(4, '0')}`);
    expect(next.kind).toBe('out');
  });

  it('POST /api/shipment/{id} changes status and refreshes updated', async () => {
    const s = (await api.post<ShipmentBody>('/api/shipment', {})).body.shipment;
    await new Promise((r) => setTimeout(r, 5));
    const res = await api.post<ShipmentBody>(`/api/shipment/${s.id}`, { status: '出荷済' });
    expect(res.body.shipment.status).toBe('出荷済');
    expect(res.body.shipment.updated).toBeGreaterThan(s.updated);
    expect(res.body.shipment.created).toBe(s.created);
  });

  it('refuses a non-boolean late with 400 and answers 404 for unknown ids', async () => {
    expect((await api.post('/api/shipment', { late: 'sometimes' })).status).toBe(400);
    const res = await api.post('/api/shipment/SHP-9999', { status: '出荷済' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('shipment not found');
  });

  it('POST /api/shipment/{id}/delete answers {ok}', async () => {
    const s = (await api.post<ShipmentBody>('/api/shipment', {})).body.shipment;
    expect((await api.post(`/api/shipment/${s.id}/delete`)).body).toEqual({ ok: true });
    expect((await api.post(`/api/shipment/${s.id}/delete`)).status).toBe(404);
  });
});
