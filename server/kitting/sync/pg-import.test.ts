import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dumpStore } from './sim/oracle.testkit';
import { dropSchema, freshSchema, schemaUrl } from '../testing/stores.testkit';
import { importSqlite } from '../store/pg-import';
import { PgStore } from '../store/pg-store';
import { SqliteStore } from '../store/sqlite-store';

const dir = mkdtempSync(join(tmpdir(), 'kitting-import-'));
const schemas: string[] = [];
afterAll(async () => {
  for (const s of schemas) await dropSchema(s);
  rmSync(dir, { recursive: true, force: true });
});

describe('central:import (SQLite → PostgreSQL)', () => {
  it('moves every record, the change log with its server_seq, series and benches, and verifies the counts', async () => {
    const file = join(dir, 'kitting.db');
    const src = new SqliteStore({ file, node: 'central' });
    for (let i = 0; i < 2500; i += 1) await src.transact(i % 2 ? 'w1' : 'w2', (tx) => tx.put('devices', `35${i}`, { imei: `35${i}`, model: 'Pixel 9', 備考: `台${i}` }));
    await src.transact('w1', (tx) => tx.patch('devices', '351', { model: 'iPhone 16' }));
    await src.transact('w1', (tx) => tx.remove('devices', '353'));
    await src.transact('w1', async (tx) => {
      await tx.next('shipment', { start: 1001 });
      await tx.next('shipment', { start: 1001 });
    });
    await src.createWorkspace('w1', 'anonymous');
    await src.replica.createEnrolCode('w1', 'hash-1', Date.now() + 60_000);
    await src.replica.saveBench('w1', 'bench-a', 'token-hash', '1番台');
    await src.replica.pushBatch('w1', 'bench-a', 'b1', [{ seq: 1, coll: 'tickets', id: 'TK-0700', hlc: src.replica.now().toString().padStart(13, '0') + ':0000:bench-a', fields: { id: 'TK-0700' } }]);
    const lastSeq = await src.replica.lastSeq('w1');
    // The log was compacted on SQLite (no bench counting as active): PostgreSQL knows how far.
    const { through } = await src.replica.compactLog('w1', { now: Date.now() + 86_400_000, retentionMs: 0, activeMs: -1e15 });
    expect(through).toBeGreaterThan(0);
    const want = { w1: await dumpStore(src, 'w1'), w2: await dumpStore(src, 'w2') };
    src.close();

    const schema = freshSchema();
    schemas.push(schema);
    let progress = '';
    const report = await importSqlite(file, schemaUrl(schema), (s) => (progress += s));
    expect(report.ok).toBe(true);
    expect(report.tables.find((t) => t.table === 'records')).toEqual({ table: 'records', source: 2501, target: 2501 });
    expect(progress).toMatch(/\[#+\] 100% sync_batches/);

    const pg = await PgStore.open({ url: schemaUrl(schema), poolSize: 2 });
    try {
      expect(await dumpStore(pg, 'w1')).toEqual(want.w1);
      expect(await dumpStore(pg, 'w2')).toEqual(want.w2);
      expect(await pg.replica.lastSeq('w1')).toBe(lastSeq);
      expect(await pg.replica.compactedThrough('w1')).toBe(through);
      expect(await pg.transact('w1', (tx) => tx.next('shipment', { start: 1001 }))).toBe(1003);
      expect((await pg.replica.listBenches('w1')).map((b) => [b.bench, b.acked])).toEqual([['bench-a', 1]]);
      const again = await pg.replica.pushBatch('w1', 'bench-a', 'b1', []);
      expect(again.duplicate).toBe(true);
      await pg.transact('w1', (tx) => tx.put('devices', 'new', { imei: 'new' }));
      expect(await pg.replica.lastSeq('w1')).toBe(lastSeq + 1);
      expect((await pg.list('w1', 'devices')).slice(0, 2).map((d) => d.imei)).toEqual(['351', '355']);
    } finally {
      await pg.end();
    }
    await expect(importSqlite(file, schemaUrl(schema), () => undefined)).rejects.toThrow('already holds records');
  });
});
