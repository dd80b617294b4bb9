import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateImei } from '../../../../shared/imei';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

interface Device {
  imei: string;
  status: string;
  chip: string;
  erasure?: { cert: string; methodKey: string; operator: string };
  history?: { what: string; detail: string; by: string; ts: number }[];
}
const device = async (imei: string) => ((await api.get(`/api/devices`)).body as { devices: Device[] }).devices.find((d) => d.imei === imei);

describe('POST /api/cert records the erasure on each device', () => {
  it('sets 消去済 with the certificate and a history entry naming the operator', async () => {
    const a = generateImei();
    const b = generateImei();
    for (const imei of [a, b]) expect((await api.post('/api/device', { imei, model: 'iPhone 15', cust: 'ABC物流株式会社' })).status).toBe(200);
    const res = await api.post('/api/cert', { cust: 'ABC物流株式会社', methodKey: 'purge', date: '2026-11-20', devices: [a, b].map((id) => ({ id, model: 'iPhone 15', storage: '128GB' })), operator: '山田 太郎' });
    expect(res.status).toBe(200);
    const body = res.body as { cert: { no: string; operator: string }; erased: string[] };
    expect(body.cert.operator).toBe('山田 太郎');
    expect(body.erased.sort()).toEqual([a, b].sort());
    for (const imei of [a, b]) {
      const d = await device(imei);
      expect(d).toMatchObject({ status: '消去済', chip: 'c-green', erasure: { cert: body.cert.no, methodKey: 'purge', operator: '山田 太郎' } });
      expect(d?.history?.at(-1)).toMatchObject({ what: 'データ消去', by: '山田 太郎' });
      expect(d?.history?.at(-1)?.detail).toContain(body.cert.no);
    }
  });

  it('physical destruction retires the device as 廃棄; a device not in the ledger is certified but nothing is created', async () => {
    const a = generateImei();
    const stranger = generateImei();
    await api.post('/api/device', { imei: a, model: 'Pixel 8a', cust: '社内検証機' });
    const res = await api.post('/api/cert', { cust: '社内検証機', methodKey: 'destroy', devices: [{ id: a, model: 'Pixel 8a', storage: '' }, { id: stranger, model: 'Pixel 8a', storage: '' }], operator: '鈴木' });
    expect(res.status).toBe(200);
    expect((res.body as { erased: string[] }).erased).toEqual([a]);
    expect(await device(a)).toMatchObject({ status: '廃棄', chip: 'c-red' });
    expect(await device(stranger)).toBeUndefined();
  });

  it('a second erasure appends to the history instead of replacing it', async () => {
    const a = generateImei();
    await api.post('/api/device', { imei: a, model: 'iPad Air', cust: '社内検証機' });
    await api.post('/api/cert', { cust: '社内検証機', methodKey: 'clear', devices: [{ id: a, model: 'iPad Air', storage: '64GB' }], operator: 'A' });
    await api.post('/api/cert', { cust: '社内検証機', methodKey: 'purge', devices: [{ id: a, model: 'iPad Air', storage: '64GB' }], operator: 'B' });
    expect((await device(a))?.history?.map((h) => h.by)).toEqual(['A', 'B']);
  });
});
