import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateImei } from '../../../../shared/imei';
import type { SqliteStore } from '../../store/sqlite-store';
import { isQuery, rig, shape, unboundedSteps, type Rig } from '../../testing/write-cost.testkit';
import { DEVICES } from './devices.service';

/**
 * A write must cost the same with 1,000 or 50,000 devices in the workspace: the same statements,
 * each reaching its rows by a full unique key (no scan, no count or max over a range, no sort).
 * Checked on the SQL each request runs and on SQLite's query plans, never on time.
 */

async function fillTo(store: SqliteStore, ws: string, target: number): Promise<void> {
  const have = await store.count(ws, DEVICES);
  await store.transact(ws, async (tx) => {
    for (let i = have; i < target; i++) {
      const imei = generateImei();
      await tx.put(DEVICES, imei, { imei, serial: `FILL-${i}`, asset: `HK-26-F${i}`, model: 'iPhone 16', cust: '検証', status: '保管中', chip: 'c-blue', bat: 100 });
    }
  });
}

const body = (i: number) => ({ model: 'iPhone 16', cust: 'ベンチ株式会社', status: '保管中', loc: `A-${i}`, note: `cost ${i}` });

/** Statements of each device write: create, bulk, edit, delete. */
async function deviceWrites(r: Rig, round: number): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  let imei = '';
  out.create = await r.statements(async () => {
    const res = await r.client.post<{ device: { imei: string } }>('/api/device', body(round));
    expect(res.status).toBe(200);
    imei = res.body.device.imei;
  });
  out.createWithImei = await r.statements(async () => {
    expect((await r.client.post('/api/device', { ...body(round), imei: generateImei() })).status).toBe(200);
  });
  out.bulk = await r.statements(async () => {
    expect((await r.client.post('/api/devices/bulk', { qty: 5, model: 'Pixel 9' })).status).toBe(200);
  });
  out.edit = await r.statements(async () => {
    expect((await r.client.post(`/api/device/${imei}`, { status: '出荷済', loc: 'B-1' })).status).toBe(200);
  });
  out.remove = await r.statements(async () => {
    expect((await r.client.post(`/api/device/${imei}/delete`)).status).toBe(200);
  });
  return out;
}

describe.each(['bench', 'central'] as const)('device writes in %s mode cost the same at 1,000 and 50,000 devices', (mode) => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig(mode);
  });
  afterAll(() => r.close());

  it('runs the same statements, each by a full unique key', async () => {
    await fillTo(r.store, r.ws, 1_000);
    const small = await deviceWrites(r, 1);
    await fillTo(r.store, r.ws, 50_000);
    expect(await r.store.count(r.ws, DEVICES)).toBe(50_000);
    const large = await deviceWrites(r, 2);

    for (const op of Object.keys(small)) {
      expect(large[op]?.map(shape), op).toEqual(small[op]?.map(shape));
      const writes = (small[op] ?? []).filter(isQuery);
      expect(writes.length, op).toBeGreaterThan(0);
      const bad = [...new Set(writes)].flatMap((sql) => unboundedSteps(r.store.db, sql));
      expect(bad, op).toEqual([]);
    }
  }, 120_000);
});
