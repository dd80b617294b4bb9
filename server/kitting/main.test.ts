import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../core/testing/process.testkit';

/** `npm run server`'s entry, quiet. */
const startKitting = (env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> => startServerProcess({ KITTING_LOG: '0', ...env }, timeoutMs, 'server/kitting/main.ts');

const dataDir = mkdtempSync(join(tmpdir(), 'kitting-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run server (server/kitting/main.ts)', () => {
  it('listens on 127.0.0.1, answers ping and healthz, shuts down cleanly on SIGTERM and keeps data across restarts', async () => {
    const first = await startKitting({ KITTING_DATA_DIR: dataDir });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await (await fetch(`${first.url}/api/ping`)).json()).ok).toBe(true);
    expect(await (await fetch(`${first.url}/healthz`)).json()).toMatchObject({ status: 'ok', database: { kind: 'sqlite', reachable: true } });
    const created = await fetch(`${first.url}/api/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'プロセス再起動' }),
    });
    const { device } = (await created.json()) as { device: { imei: string } };
    expect(await first.stop()).toBe(0);

    // Clean shutdown: WAL checkpointed into the main file, database intact.
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(true);
    const db = new Database(join(dataDir, 'kitting.db'), { readonly: true });
    expect((db.pragma('integrity_check') as { integrity_check: string }[])[0].integrity_check).toBe('ok');
    db.close();
    const wal = join(dataDir, 'kitting.db-wal');
    expect(!existsSync(wal) || (await import('node:fs')).statSync(wal).size === 0).toBe(true);

    const second = await startKitting({ KITTING_DATA_DIR: dataDir });
    const list = (await (await fetch(`${second.url}/api/devices`)).json()) as { count: number; devices: { imei: string; note: string }[] };
    expect(list.count).toBe(179);
    expect(list.devices.find((d) => d.imei === device.imei)?.note).toBe('プロセス再起動');
    expect(await second.stop()).toBe(0);
  }, 60_000);

  it('refuses an invalid KITTING_MODE with a clear message', async () => {
    await expect(startKitting({ KITTING_DATA_DIR: dataDir, KITTING_MODE: 'cloud' }, 15_000)).rejects.toThrow(/KITTING_MODE must be bench or central/);
  }, 30_000);
});
