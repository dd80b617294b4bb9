/**
 * Two central processes on one PostgreSQL database behind a load balancer, three benches: pushes and
 * pulls spread over both; after quiescence every replica holds the same records, every number is unique
 * and no write is lost. One central is killed mid-push and the bench's retry, answered by the other,
 * stores nothing twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore } from '../store/pg-store';
import { Balancer } from '../../core/testing/balancer.testkit';
import { Client, startTestServer, type TestServer } from '../testing/harness.testkit';
import { dropSchema, freshSchema, schemaUrl } from '../testing/stores.testkit';
import { dumpStore } from './sim/oracle.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string };

const schema = freshSchema();
const dirs: string[] = [];
const centrals: Central[] = [];
const benches: TestServer[] = [];
let lb: Balancer;
let owner: Client;
let db: PgStore;

const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'kitting-multi-'));
  dirs.push(d);
  return d;
};

interface Central {
  url: string;
  child: ChildProcess;
}

/** SIGKILL a central and every process it started (own process group). */
const killCentral = (c: Central) => {
  try {
    if (c.child.pid) process.kill(-c.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

/** `npx tsx server/kitting/main.ts` in central mode on the shared database, in its own process group. */
function startCentral(): Promise<Central> {
  const child = spawn('npx', ['tsx', 'server/kitting/main.ts'], {
    cwd: join(import.meta.dirname, '..', '..', '..'),
    env: { ...process.env, NODE_ENV: 'test', KITTING_LOG: '0', PORT: '0', KITTING_MODE: 'central', KITTING_DATABASE_URL: schemaUrl(schema), KITTING_DATA_DIR: tmp(), KITTING_WORKSPACES_PER_IP_HOUR: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`central did not start:\n${out}`)), 90_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1] as string, child });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!/listening on/.test(out)) reject(new Error(`central exited with ${code}:\n${out}`));
    });
  });
}

beforeAll(async () => {
  centrals.push(...(await Promise.all([startCentral(), startCentral()])));
  lb = new Balancer(centrals.map((c) => c.url));
  await lb.listen();
  owner = new Client(lb.url);
  expect((await owner.get('/api/devices')).status).toBe(200);
  db = await PgStore.open({ url: schemaUrl(schema), poolSize: 2 });
}, 120_000);

afterAll(async () => {
  for (const b of benches) await b.close();
  await lb?.close();
  for (const c of centrals) killCentral(c);
  await db?.end();
  await dropSchema(schema);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function enrolBench(): Promise<{ server: TestServer; ui: Client }> {
  const server = await startTestServer({ mode: 'bench' });
  benches.push(server);
  const ui = server.client();
  const { code } = (await owner.post<Body & { code: string }>('/api/sync/enrol-code')).body;
  const res = await ui.post<Body>('/api/sync/enrol', { central: lb.url, code });
  expect(res.status, res.text).toBe(200);
  return { server, ui };
}

const syncNow = async (ui: Client) => (await ui.post<Body & { pending: number }>('/api/sync/now')).status;

describe('two central processes on one PostgreSQL database', () => {
  it('three benches converge over both centrals with unique numbers and nothing lost', { timeout: 240_000 }, async () => {
    const ws = owner.workspaceId() as string;
    const [a, b, c] = [await enrolBench(), await enrolBench(), await enrolBench()];
    const made = { devices: new Set<string>(), shipments: [] as string[], tickets: [] as string[] };
    for (let round = 0; round < 4; round += 1) {
      for (const [i, bench] of [a, b, c].entries()) {
        const dev = await bench.ui.post<Body & { device: { imei: string } }>('/api/device', { model: 'Pixel 9', note: `bench ${i} round ${round}` });
        expect(dev.status).toBe(200);
        made.devices.add(dev.body.device.imei);
        const ship = await bench.ui.post<Body & { shipment: { id: string } }>('/api/shipment', { customer: `顧客${i}` });
        expect(ship.status).toBe(200);
        made.shipments.push(ship.body.shipment.id);
        const t = await bench.ui.post<Body & { ticket: { id: string } }>('/api/ticket', { subject: `修理 ${i}-${round}` });
        expect(t.status).toBe(200);
        made.tickets.push(t.body.ticket.id);
        expect(await syncNow(bench.ui)).toBe(200);
      }
      // Central's own users, answered by either process.
      const ship = await owner.post<Body & { shipment: { id: string } }>('/api/shipment', { customer: '本部' });
      expect(ship.status).toBe(200);
      made.shipments.push(ship.body.shipment.id);
      const t = await owner.post<Body & { ticket: { id: string } }>('/api/ticket', { subject: '本部受付' });
      made.tickets.push(t.body.ticket.id);
    }
    const used = new Set(lb.routed.filter((r) => r.path.startsWith('/api/sync/v1/push')).map((r) => r.upstream));
    expect(used.size).toBe(2);

    for (let i = 0; i < 2; i += 1) for (const bench of [a, b, c]) expect(await syncNow(bench.ui)).toBe(200);

    const central = await dumpStore(db, ws);
    for (const bench of [a, b, c]) expect(await dumpStore(bench.server.store, ws)).toEqual(central);
    const shipments = (await owner.get<Body & { shipments: { id: string }[] }>('/api/shipments')).body.shipments.map((s) => s.id);
    const tickets = (await owner.get<Body & { tickets: { id: string }[] }>('/api/tickets')).body.tickets.map((t) => t.id);
    expect(new Set(shipments).size).toBe(shipments.length);
    expect(new Set(tickets).size).toBe(tickets.length);
    expect(new Set(made.shipments).size).toBe(made.shipments.length);
    expect(new Set(made.tickets).size).toBe(made.tickets.length);
    for (const id of made.shipments) expect(shipments).toContain(id);
    for (const id of made.tickets) expect(tickets).toContain(id);
    const devices = (await owner.get<Body & { devices: { imei: string }[] }>('/api/devices')).body.devices.map((d) => d.imei);
    for (const imei of made.devices) expect(devices).toContain(imei);
  });

  it('a central killed mid-push: the bench retries through the other and nothing is stored twice', { timeout: 120_000 }, async () => {
    const ws = owner.workspaceId() as string;
    const bench = await enrolBench();
    expect(await syncNow(bench.ui)).toBe(200);
    const dev = await bench.ui.post<Body & { device: { imei: string } }>('/api/device', { model: 'iPhone 16', note: '切断中の登録' });
    const imei = dev.body.device.imei;
    let killed: string | null = null;
    // The first push: the central answering it commits, then dies before its answer reaches the bench.
    lb.afterAnswer = (req, upstream) => {
      if (killed || !req.url?.startsWith('/api/sync/v1/push')) return true;
      killed = upstream.url;
      const proc = centrals.find((p) => p.url === upstream.url);
      if (proc) killCentral(proc);
      return false;
    };
    expect(await syncNow(bench.ui)).not.toBe(200);
    expect(killed).not.toBeNull();
    lb.afterAnswer = null;
    const before = lb.routed.length;
    expect(await syncNow(bench.ui)).toBe(200);
    const retried = lb.routed.slice(before).filter((r) => r.path.startsWith('/api/sync/v1/push') && r.status === 200);
    expect(retried.length).toBeGreaterThan(0);
    for (const r of retried) expect(r.upstream).not.toBe(killed);

    const logged = await db.replica.changesSince(ws, 0, 1_000_000, '');
    const forDevice = logged.filter((ch) => ch.coll === 'devices' && ch.id === imei);
    expect(forDevice.length).toBeGreaterThan(0);
    const stamps = forDevice.map((ch) => ch.hlc);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect((await owner.get<Body & { devices: { imei: string }[] }>('/api/devices')).body.devices.filter((d) => d.imei === imei)).toHaveLength(1);
    expect(await dumpStore(bench.server.store, ws)).toEqual(await dumpStore(db, ws));
  });
});
