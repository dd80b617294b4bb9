import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../testing/harness.testkit';

interface Proc {
  child: ChildProcess;
  url: string;
  port: number;
}

const ROOT = join(import.meta.dirname, '..', '..', '..');
const running = new Set<ChildProcess>();
const dirs: string[] = [];

/** `npx tsx server/kitting/main.ts` with its own data folder; resolves once it prints its address. */
function startServer(env: Record<string, string>): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'server/kitting/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', KITTING_LOG: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group: npx, tsx and the server are stopped together.
      detached: true,
    });
    running.add(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 40_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] as string, port: Number(m[2]) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      running.delete(child);
      clearTimeout(timer);
      if (!/listening on/.test(out)) reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
};

async function stopServer(p: Proc): Promise<void> {
  await new Promise<void>((resolve) => {
    if (p.child.exitCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    signalGroup(p.child, 'SIGTERM');
  });
  // The port is free once nothing answers on it.
  for (let i = 0; i < 50; i += 1) {
    const up = await fetch(`${p.url}/api/health`).then(
      () => true,
      () => false,
    );
    if (!up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tmp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `kitting-${name}-`));
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const c of running) signalGroup(c, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Body = Record<string, unknown> & { ok: boolean };
interface Device {
  imei: string;
}

describe('bench and central as two processes', () => {
  it('a bench enrolled by code keeps working while central is down and catches up when it returns', { timeout: 120_000 }, async () => {
    const centralDir = tmp('central');
    const benchDir = tmp('bench');
    let central = await startServer({ KITTING_MODE: 'central', KITTING_DATA_DIR: centralDir, PORT: '0' });
    const browser = new Client(central.url);
    const before = await browser.get<Body & { devices: Device[] }>('/api/devices');
    expect(before.status).toBe(200);
    const made = await browser.post<Body & { code: string; expiresAt: string }>('/api/sync/enrol-code');
    expect(made.status).toBe(200);

    const bench = await startServer({
      KITTING_MODE: 'bench',
      KITTING_DATA_DIR: benchDir,
      PORT: '0',
      KITTING_CENTRAL_URL: central.url,
      KITTING_ENROL_CODE: made.body.code,
      KITTING_SYNC_INTERVAL_MS: '500',
    });
    const ui = new Client(bench.url);
    const status = await ui.get<Body & { enrolled: boolean; central: string }>('/api/sync/status');
    expect(status.body).toMatchObject({ ok: true, enrolled: true, central: central.url });
    // The bench's demo rows and central's merged by natural id: no duplicates.
    expect(((await ui.get<Body & { devices: Device[] }>('/api/devices')).body.devices ?? []).length).toBe(before.body.devices.length);
    expect((await ui.post<Body>('/api/sync/now')).status).toBe(200);

    await stopServer(central);
    const dev = await ui.post<Body & { device: Device }>('/api/device', { model: 'Pixel 9', note: 'オフライン登録' });
    expect(dev.status).toBe(200);
    const ship = await ui.post<Body & { shipment: { id: string } }>('/api/shipment', { customer: 'オフライン顧客' });
    expect(ship.status).toBe(200);
    const failed = await ui.post<Body & { pending: number; lastError: string }>('/api/sync/now');
    expect(failed.status).toBe(503);
    expect(failed.body.error).toBe('sync_failed');
    const offline = await ui.get<Body & { pending: number; lastError: string | null }>('/api/sync/status');
    expect(offline.body.pending).toBeGreaterThan(0);
    expect(offline.body.lastError).toBeTruthy();

    central = await startServer({ KITTING_MODE: 'central', KITTING_DATA_DIR: centralDir, PORT: String(central.port) });
    const synced = await ui.post<Body & { pending: number; lastError: string | null }>('/api/sync/now');
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ pending: 0, lastError: null });

    const devices = (await browser.get<Body & { devices: Device[] }>('/api/devices')).body.devices;
    expect(devices.map((d) => d.imei)).toContain(dev.body.device.imei);
    expect(devices).toHaveLength(before.body.devices.length + 1);
    const shipments = (await browser.get<Body & { shipments: { id: string }[] }>('/api/shipments')).body.shipments;
    expect(shipments.map((s) => s.id)).toContain(ship.body.shipment.id);

    // A change made on central reaches the bench by its background loop.
    const onCentral = await browser.post<Body & { device: Device }>('/api/device', { model: 'iPhone 16', note: '本部登録' });
    let seen = false;
    for (let i = 0; i < 40 && !seen; i += 1) {
      await new Promise((r) => setTimeout(r, 250));
      const list = (await ui.get<Body & { devices: Device[] }>('/api/devices')).body.devices;
      seen = list.some((d) => d.imei === onCentral.body.device.imei);
    }
    expect(seen).toBe(true);

    await stopServer(bench);
    await stopServer(central);
  });
  it('a bench enrolled a moment ago registers a device and issues a certificate at once with central stopped; both arrive when it returns', { timeout: 120_000 }, async () => {
    const centralDir = tmp('central2');
    const benchDir = tmp('bench2');
    let central = await startServer({ KITTING_MODE: 'central', KITTING_DATA_DIR: centralDir, PORT: '0' });
    const browser = new Client(central.url);
    expect((await browser.get<Body>('/api/devices')).status).toBe(200);
    const made = await browser.post<Body & { code: string }>('/api/sync/enrol-code');
    const bench = await startServer({
      KITTING_MODE: 'bench',
      KITTING_DATA_DIR: benchDir,
      PORT: '0',
      KITTING_CENTRAL_URL: central.url,
      KITTING_ENROL_CODE: made.body.code,
      KITTING_SYNC_INTERVAL_MS: '600000',
    });
    await stopServer(central);
    const ui = new Client(bench.url);
    expect((await ui.get<Body & { enrolled: boolean }>('/api/sync/status')).body.enrolled).toBe(true);

    const dev = await ui.post<Body & { device: Device & { asset: string } }>('/api/device', { model: 'Pixel 9', note: '登録直後・中央停止中' });
    expect(dev.status).toBe(200);
    expect(dev.body.device.asset).toMatch(/^HK-26-\d+$/);
    const year = new Date(Date.now() + 9 * 3_600_000).getUTCFullYear();
    const cert = await ui.post<Body & { cert: { no: string } }>('/api/cert', { cust: '株式会社オフライン', count: 1 });
    expect(cert.status).toBe(200);
    expect(cert.body.cert.no).toMatch(new RegExp(`^KIT-ERZ-${year}-\\d{4,}$`));

    central = await startServer({ KITTING_MODE: 'central', KITTING_DATA_DIR: centralDir, PORT: String(central.port) });
    const synced = await ui.post<Body & { pending: number; lastError: string | null }>('/api/sync/now');
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ pending: 0, lastError: null });
    const devices = (await browser.get<Body & { devices: (Device & { asset: string })[] }>('/api/devices')).body.devices;
    expect(devices.find((d) => d.imei === dev.body.device.imei)?.asset).toBe(dev.body.device.asset);
    const certs = (await browser.get<Body & { certs: { no: string }[] }>('/api/certs')).body.certs;
    expect(certs.map((c) => c.no)).toContain(cert.body.cert.no);

    await stopServer(bench);
    await stopServer(central);
  });
});
