import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidImei } from '../../../../shared/imei';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Device {
  imei: string;
  serial: string;
  asset: string;
  model: string;
  maker: string;
  os: string;
  cust: string;
  mdm: string;
  status: string;
  chip: string;
  bat: number;
  loc: string;
  user: string;
  note: string;
}
type DeviceBody = { ok: boolean; device: Device; error?: string };

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('GET /api/devices', () => {
  it('lists the 178 seeded devices with their count', async () => {
    const res = await api.get<{ ok: boolean; devices: Device[]; count: number }>('/api/devices');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.count).toBe(178);
    expect(res.body.devices).toHaveLength(178);
    expect(res.body.devices.every((d) => isValidImei(d.imei))).toBe(true);
  });
});

describe('POST /api/device', () => {
  it('applies the documented defaults and generates a valid 15-digit imei', async () => {
    const res = await api.post<DeviceBody>('/api/device', {});
    expect(res.status).toBe(200);
    const d = res.body.device;
    expect(isValidImei(d.imei)).toBe(true);
    expect(d).toMatchObject({ model: 'iPhone 16', cust: '社内検証機', status: '入荷待ち', chip: 'c-gray', maker: 'Apple', os: 'iOS' });
    expect(d.mdm).not.toBe('');
    expect(d.asset).toMatch(/^HK-26-\d+$/);
  });

  it('invents no serial and no battery level for a scanned device (nobody read them)', async () => {
    const d = (await api.post<DeviceBody>('/api/device', { imei: '356938035643833', model: 'iPhone 15' })).body.device;
    expect(d.serial).toBeUndefined();
    expect(d.bat).toBeUndefined();
    const bulk = (await api.post<{ created: DeviceBody['device'][] }>('/api/devices/bulk', { qty: 3, model: 'iPhone 15' })).body.created;
    for (const x of bulk) {
      expect(x.serial).toBeUndefined();
      expect(x.bat).toBeUndefined();
    }
    const read = (await api.post<DeviceBody>('/api/device', { imei: '356938035643825', serial: 'F2LXK0ABCD12', bat: 87 })).body.device;
    expect(read).toMatchObject({ serial: 'F2LXK0ABCD12', bat: 87 });
  });

  it('continues asset numbers after the seeded ledger', async () => {
    const a = (await api.post<DeviceBody>('/api/device', {})).body.device;
    const b = (await api.post<DeviceBody>('/api/device', {})).body.device;
    expect(Number(b.asset.split('-')[2])).toBe(Number(a.asset.split('-')[2]) + 1);
    expect(Number(a.asset.split('-')[2])).toBeGreaterThan(178);
  });

  it('derives chip from status', async () => {
    for (const [status, chip] of [['保管中', 'c-blue'], ['作業中', 'c-cyan'], ['入荷待ち', 'c-gray']]) {
      const res = await api.post<DeviceBody>('/api/device', { status });
      expect(res.body.device.chip).toBe(chip);
    }
  });

  it('switches OS defaults for iPad models', async () => {
    const res = await api.post<DeviceBody>('/api/device', { model: 'iPad (第10世代)' });
    expect(res.body.device.os).toBe('iPadOS');
  });

  it('clips fields to their documented lengths and keeps bat raw', async () => {
    const res = await api.post<DeviceBody>('/api/device', {
      model: 'M'.repeat(100),
      cust: 'C'.repeat(100),
      status: 'S'.repeat(50),
      note: 'N'.repeat(500),
      loc: 'L'.repeat(200),
      mdm: 'D'.repeat(60),
      bat: 137.5,
    });
    const d = res.body.device;
    expect(d.model).toHaveLength(60);
    expect(d.cust).toHaveLength(60);
    expect(d.status).toHaveLength(20);
    expect(d.note).toHaveLength(300);
    expect(d.loc).toHaveLength(120);
    expect(d.mdm).toHaveLength(40);
    expect(d.bat).toBe(137.5);
  });
  it('clips the strings the contract does not name (maker, os, user) to 120', async () => {
    const res = await api.post<DeviceBody>('/api/device', { maker: 'M'.repeat(200), os: 'O'.repeat(200), user: 'U'.repeat(200) });
    expect(res.status).toBe(200);
    expect(res.body.device.maker).toHaveLength(120);
    expect(res.body.device.os).toHaveLength(120);
    expect(res.body.device.user).toHaveLength(120);
  });

  it('keeps a given imei and refuses a second device with it', async () => {
    const imei = '490154203237518';
    expect((await api.post<DeviceBody>('/api/device', { imei })).body.device.imei).toBe(imei);
    const again = await api.post<DeviceBody>('/api/device', { imei, model: 'Pixel 8a' });
    expect(again.status).toBe(409);
    expect(again.body.ok).toBe(false);
  });

  it('treats a blank imei as omitted and trims the blanks around a given one', async () => {
    const blank = (await api.post<DeviceBody>('/api/device', { imei: '   ' })).body.device;
    expect(isValidImei(blank.imei)).toBe(true);
    const padded = await api.post<DeviceBody>('/api/device', { imei: ' 353915106520913 ' });
    expect(padded.body.device.imei).toBe('353915106520913');
    expect((await api.post('/api/device', { imei: '353915106520913' })).status).toBe(409);
  });

  it('refuses wrong types with 400 and stores nothing', async () => {
    const before = (await api.get<{ count: number }>('/api/devices')).body.count;
    for (const body of [{ model: { x: 1 } }, { bat: 'lots' }, { status: true }, [1, 2]]) {
      const res = await api.post('/api/device', body);
      expect(res.status).toBe(400);
      expect(res.body.ok).toBe(false);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await api.get<{ count: number }>('/api/devices')).body.count).toBe(before);
  });
});

describe('POST /api/devices/bulk', () => {
  it('creates qty devices', async () => {
    const res = await api.post<{ created: Device[]; count: number }>('/api/devices/bulk', { qty: 5, model: 'Galaxy A55', status: '保管中' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(5);
    expect(new Set(res.body.created.map((d) => d.imei)).size).toBe(5);
    expect(res.body.created[0]).toMatchObject({ model: 'Galaxy A55', chip: 'c-blue', maker: 'Samsung' });
  });

  it('clamps qty to 1000', async () => {
    const res = await api.post<{ count: number }>('/api/devices/bulk', { qty: 5000 });
    expect(res.body.count).toBe(1000);
  });

  it('answers 400 for a missing or zero qty', async () => {
    for (const body of [{}, { qty: 0 }, { qty: 'abc' }]) {
      const res = await api.post('/api/devices/bulk', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('qty required');
    }
  });
});

describe('POST /api/device/{imei}', () => {
  it('updates fields and recomputes chip on status change', async () => {
    const { imei } = (await api.post<DeviceBody>('/api/device', { status: '入荷待ち' })).body.device;
    const res = await api.post<DeviceBody>(`/api/device/${imei}`, { status: '作業中', loc: '作業台3', user: '佐藤', bat: 88, note: '初期化済み' });
    expect(res.body.device).toMatchObject({ imei, status: '作業中', chip: 'c-cyan', loc: '作業台3', user: '佐藤', bat: 88, note: '初期化済み' });
  });

  it('keeps imei immutable', async () => {
    const { imei } = (await api.post<DeviceBody>('/api/device', {})).body.device;
    const res = await api.post(`/api/device/${imei}`, { imei: '356938035643809' });
    expect(res.status).toBe(400);
    expect((await api.post<DeviceBody>(`/api/device/${imei}`, { imei, note: 'x' })).body.device.imei).toBe(imei);
  });

  it('answers 404 for an unknown imei', async () => {
    const res = await api.post('/api/device/000000000000000', { status: '保管中' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ ok: false, error: 'device not found' });
  });
});

describe('POST /api/device/{imei}/delete', () => {
  it('deletes the device and answers its imei', async () => {
    const { imei } = (await api.post<DeviceBody>('/api/device', {})).body.device;
    expect((await api.post(`/api/device/${imei}/delete`)).body).toEqual({ ok: true, imei });
    const list = await api.get<{ devices: Device[] }>('/api/devices');
    expect(list.body.devices.some((d) => d.imei === imei)).toBe(false);
    expect((await api.post(`/api/device/${imei}/delete`)).status).toBe(404);
  });
});
