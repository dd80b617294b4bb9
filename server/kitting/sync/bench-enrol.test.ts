import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSET_NUMBERS } from '../modules/devices/devices.service';
import { allRoutes } from '../modules';
import { CERT_NUMBERS } from '../modules/certs/certs.service';
import { ensureWorkspace } from '../store/seed';
import { issueNumber, numberedSeries } from '../store/series';
import { SqliteStore } from '../store/sqlite-store';
import { ENROLMENT_KEY, SyncBench } from './bench';
import { SyncCentral } from './central';
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
          return { token: 't', workspace: 'w-central', bench: 'benchx', renumber: { shipment: 5 }, blocks: [], serverTime: Date.now() };
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

describe('SyncBench.enrol: numbers come with the token', () => {
  it('keeps a block and the reserve of every series with the enrolment, so numbers are issued before any sync cycle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kitting-enrol-'));
    const centralStore = new SqliteStore({ file: ':memory:', node: 'central' });
    const store = new SqliteStore({ file: ':memory:', node: 'benchy' });
    try {
      const central = new SyncCentral(centralStore);
      await ensureWorkspace(centralStore, 'w-central', 'anonymous', []);
      const { code } = await central.createCode('w-central');
      const unreachable = () => Promise.reject(new SyncError(0, 'central_unreachable'));
      const transport: Transport = {
        enrol: (body) => central.enrol({ name: '', series: {}, ...body }, 0),
        push: unreachable,
        pull: unreachable,
        snapshot: unreachable,
        lease: unreachable,
      };
      await ensureWorkspace(store, 'b-local', 'bench', []);
      await store.setMeta('bench_workspace', 'b-local');
      const bench = new SyncBench(store, { dataDir: dir, transport: () => transport, blockSize: 20 });
      await bench.enrol('http://central', code);
      expect(JSON.parse((await store.meta(ENROLMENT_KEY)) ?? '{}')).toMatchObject({ workspace: 'w-central', bench: 'benchy' });

      const levels = await store.replica.leaseLevels('w-central');
      // Every module loaded (as in the app): all of their series.
      expect(allRoutes.length).toBeGreaterThan(0);
      const counters = numberedSeries.countersAt(Date.now());
      expect(counters.length).toBe(22); // 11 series, the periodic ones (invoice, erz, quote, store-order, buyback-receipt, inbound) twice: this period and the next
      for (const c of counters) {
        expect(levels.find((l) => l.series === c.counter), c.counter).toMatchObject({ remaining: 20, reserve: c.reserve });
      }
      const year = CERT_NUMBERS.periodAt(Date.now());
      const issued = await store.transact('w-central', async (tx) => ({
        asset: (await issueNumber(tx, ASSET_NUMBERS)).value,
        cert: (await issueNumber(tx, CERT_NUMBERS, year)).value,
        nextYear: (await issueNumber(tx, CERT_NUMBERS, CERT_NUMBERS.nextPeriod(year))).value,
      }));
      expect(issued.asset).toMatch(/^HK-26-\d+$/);
      expect(issued.cert).toBe(`KIT-ERZ-${year}-0001`);
      expect(issued.nextYear).toBe(`KIT-ERZ-${Number(year) + 1}-0001`);
    } finally {
      store.close();
      centralStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SyncBench and a central of an older version (no certificate keys)', () => {
  it('keeps syncing when central lacks the cert-key route, and publishes its key with its alias once central has it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kitting-enrol-'));
    const store = new SqliteStore({ file: ':memory:', node: 'benchold' });
    try {
      await ensureWorkspace(store, 'b-00112233445566aa', 'bench', []);
      await store.setMeta('bench_workspace', 'b-00112233445566aa');
      const now = () => Date.now();
      const sentKeys: { alias?: string | null }[] = [];
      let routeExists = false;
      const transport: Transport = {
        // An older central answers without publicUrl: it ignored the key the bench sent.
        enrol: async () => ({ token: 't', workspace: 'w-central', bench: 'benchold', blocks: [], serverTime: now() }),
        push: async () => ({ acked: 0, applied: 0, duplicate: false, serverTime: now() }),
        pull: async (_t, after) => ({ changes: [], next: after, more: false, serverTime: now() }),
        snapshot: async () => ({ records: [], nextKey: null, serverSeq: 0, serverTime: now() }),
        lease: async () => ({ blocks: [], series: [], serverTime: now() }),
        certKey: async (_t, body) => {
          if (!routeExists) throw new SyncError(404, 'not_found', null);
          sentKeys.push(body);
          return { kid: body.kid, publicUrl: 'https://kitting.example.jp', serverTime: now() };
        },
      };
      const bench = new SyncBench(store, { dataDir: dir, transport: () => transport });
      await bench.enrol('http://central', 'CODE-1234');
      await bench.cycle();
      expect((await bench.status()).lastError).toBeNull();
      expect(sentKeys).toEqual([]);

      routeExists = true; // central updated
      await bench.cycle();
      await bench.cycle();
      expect(sentKeys).toHaveLength(1);
      expect(sentKeys[0]?.alias).toBe('b-00112233445566aa');
      expect(await store.meta('central_public_url')).toBe('https://kitting.example.jp');
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
