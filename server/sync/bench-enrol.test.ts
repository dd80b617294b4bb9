import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureWorkspace } from '../store/seed';
import { SqliteStore } from '../store/sqlite-store';
import { SyncBench } from './bench';
import { SyncError, type EnrolBody, type Transport } from './protocol';

const unused = () => Promise.reject(new Error('not used'));

describe('SyncBench.enrol with a renumbering plan', () => {
  it('a number issued while central answered: 409 enrol_interrupted, nothing rewritten, not enrolled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kitting-enrol-'));
    const store = new SqliteStore({ file: ':memory:', node: 'benchx' });
    try {
      await ensureWorkspace(store, 'b-local', 'bench', []);
      await store.setMeta('bench_workspace', 'b-local');
      const ship = () =>
        store.transact('b-local', async (tx) => {
          const id = `SHP-${await tx.next('shipment', { start: 1001 })}`;
          return tx.put('shipments', id, { id });
        });
      await ship();
      let sent: EnrolBody | null = null;
      const transport: Transport = {
        enrol: async (body) => {
          sent = body;
          await ship(); // the bench's UI issues a number meanwhile
          return { token: 't', workspace: 'w-central', bench: 'benchx', renumber: { shipment: 5 }, serverTime: Date.now() };
        },
        push: unused,
        pull: unused,
        snapshot: unused,
        lease: unused,
      };
      const bench = new SyncBench(store, { dataDir: dir, transport: () => transport });
      const err = await bench.enrol('http://central', 'CODE-1234').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SyncError);
      expect((err as SyncError).status).toBe(409);
      expect((err as SyncError).error).toBe('enrol_interrupted');
      expect(sent).toMatchObject({ series: { shipment: 1001 }, base: {} });
      expect(bench.enrolled).toBe(false);
      expect((await store.list('b-local', 'shipments')).map((d) => d.id)).toEqual(['SHP-1001', 'SHP-1002']);
      expect(await store.meta('bench_workspace')).toBe('b-local');
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
