import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuery, rig, shape, unboundedSteps, type Rig } from '../../testing/write-cost.testkit';
import { b64, csvFile, noticeRows, testImei } from './inbound.testkit';

/**
 * A scan against a list costs a plain registration plus the line: it runs the statements of POST /api/device
 * (in one transaction), except that the registration's read of the device by key becomes one read of three
 * keys (the list, the line and the device, each reached by the primary key), and besides them exactly one: the
 * line rewritten in place (an UPDATE by key: no insert attempt, no counts trigger) — the same statements
 * whether the list has 100 or 3,000 lines. The change rows of the device and the line are logged by one
 * INSERT at commit, where a registration logs its one row. The line sits in one lookup index only (`at`), so
 * the write moves one index entry. Checked on SQL, query plans and indexes, never on time (the rate is
 * compared in perf/inbound.bench.ts).
 */
const ok = async (p: Promise<{ status: number; body: unknown }>) => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Record<string, never>;
};

describe('scanning against an inbound list costs a registration plus the line', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig('bench');
  });
  afterAll(() => r.close());

  async function listOf(n: number, start: number): Promise<string> {
    const body = await ok(r.client.post('/api/inbound', { name: `コスト ${n}`, cust: '検証株式会社', file: b64(csvFile(noticeRows(n, start))) }));
    return (body.inbound as { id: string }).id;
  }

  it('runs the registration statements with its device read widened to three keys, plus the line rewritten by key, with 100 or 3,000 lines', async () => {
    const small = await listOf(100, 0);
    const large = await listOf(3_000, 10_000);
    await ok(r.client.post('/api/device', { imei: testImei(1, '35877700'), model: 'iPhone 15' }));
    await ok(r.client.post(`/api/inbound/${small}/scan`, { imei: testImei(0) }));

    const register = await r.statements(() => ok(r.client.post('/api/device', { imei: testImei(2, '35877700'), model: 'iPhone 15', cust: '検証株式会社' })));
    const scanSmall = await r.statements(() => ok(r.client.post(`/api/inbound/${small}/scan`, { imei: testImei(1) })));
    const scanLarge = await r.statements(() => ok(r.client.post(`/api/inbound/${large}/scan`, { imei: testImei(10_001) })));

    expect(scanLarge.map(shape)).toEqual(scanSmall.map(shape));
    // One transaction each.
    for (const run of [register, scanSmall]) expect(run.filter((s) => /^\s*(BEGIN|COMMIT)/.test(s)).length).toBe(2);
    // The change log: one INSERT per transaction, just before COMMIT; the scan's holds the device and the line.
    const isLog = (x: string) => /^\s*INSERT INTO changes/.test(x);
    const logged = (x: string) => [...x.slice(x.indexOf('VALUES')).matchAll(/\('[^']*', '(\w+)',/g)].map((m) => m[1]);
    for (const run of [register, scanSmall]) expect(run.findIndex(isLog)).toBe(run.length - 2);
    expect(register.filter(isLog).map(logged)).toEqual([['devices']]);
    expect(scanSmall.filter(isLog).map(logged)).toEqual([['devices', 'inboundLines']]);
    // The registration reads the device by its key once; the scan reads the list, the line and the device in one statement.
    const isKeyRead = (x: string) => /^SELECT data, stamps, deleted FROM records WHERE ws = '[^']*' AND coll = '\w+' AND id = /.test(x);
    expect(register.filter(isKeyRead)).toHaveLength(1);
    expect(register.find(isKeyRead)).toMatch(/coll = 'devices'/);
    expect(scanSmall.filter(isKeyRead)).toEqual([]);
    // The registration's other statements, in order, inside the scan; what is left is the three-key read and the line's UPDATE.
    const extra = scanSmall.filter((x) => !isLog(x));
    for (const s of register.filter((x) => !isLog(x) && !isKeyRead(x)).map(shape)) {
      const i = extra.findIndex((x) => shape(x) === s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      extra.splice(i, 1);
    }
    expect(extra).toHaveLength(2);
    const keyOf = (x: string) => [...x.matchAll(/coll = '(\w+)' AND id = /g)].map((m) => m[1]);
    expect(extra[0]).toMatch(/^SELECT coll, id, data, stamps, deleted FROM records WHERE ws = .* UNION ALL SELECT /);
    expect(keyOf(extra[0] as string)).toEqual(['inbound', 'inboundLines', 'devices']);
    // The line is rewritten in place: data, stamps and the record's stamp, by its full key.
    expect(extra[1]).toMatch(/^UPDATE records SET data = .*, stamps = .*, hlc = .* WHERE ws = .* AND coll = 'inboundLines' AND id = /);
    // No record is read twice in one transaction.
    const reads = scanSmall.filter((x) => /^\s*SELECT/.test(x));
    expect(new Set(reads).size).toBe(reads.length);
    // One lookup index over the lines: a scan rewrites the entry of one index, not two.
    const indexes = (r.store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'records_by_inboundlines_%'").all() as { name: string }[]).map((x) => x.name);
    expect(indexes).toEqual(['records_by_inboundlines_at']);

    const bad = [...new Set(scanLarge.filter(isQuery))].flatMap((sql) => unboundedSteps(r.store.db, sql));
    expect(bad).toEqual([]);
  }, 120_000);
});
