import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuery, rig, shape, unboundedSteps, type Rig } from '../../testing/write-cost.testkit';
import { b64, csvFile, noticeRows, testImei } from './inbound.testkit';

/**
 * A scan against a list costs a plain registration plus the line: it runs the statements of POST /api/device
 * (in one transaction) and, besides them, exactly four: the list read by its key, the line read by its key
 * (read once: the transaction keeps it for the write), the line written and its change logged — the same
 * statements whether the list has 100 or 3,000 lines, each reaching its row by a full unique key. The line
 * sits in one lookup index only (`at`), so the write moves one index entry. Checked on SQL, query plans and
 * indexes, never on time (the rate is compared in perf/inbound.bench.ts).
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

  it('runs the registration statements plus a fixed few by key, with 100 or 3,000 lines', async () => {
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
    // The registration's statements, in order, inside the scan; what is left is the list and the line.
    const extra = [...scanSmall];
    for (const s of register.map(shape)) {
      const i = extra.findIndex((x) => shape(x) === s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      extra.splice(i, 1);
    }
    const tables = extra.map((s) => /(?:FROM|INTO)\s+(\w+)/.exec(s)?.[1] ?? s);
    expect(tables).toEqual(['records', 'records', 'records', 'changes']);
    // Which collection each statement reaches: the scan's are the registration's plus the list and the line.
    const collOf = (sql: string) => /coll = '(\w+)'|VALUES \('[^']*', '(\w+)'/.exec(sql)?.slice(1).find(Boolean) ?? '-';
    const left = scanSmall.map(collOf);
    for (const c of register.map(collOf)) left.splice(left.indexOf(c), 1);
    expect(left.sort()).toEqual(['inbound', 'inboundLines', 'inboundLines', 'inboundLines']);
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
