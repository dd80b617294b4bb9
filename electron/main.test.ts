import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedServer } from '../server/kitting/embedded';
import { CHANNELS } from '../shared/station-bridge';
import { launchServer, type Shell } from './shell';

type Fn = (...args: never[]) => unknown;

const fake = vi.hoisted(() => {
  const state = {
    dir: '',
    appListeners: new Map<string, Fn[]>(),
    windows: [] as Array<{ options: Record<string, unknown>; url: string; shown: boolean }>,
    channels: [] as string[],
    handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
    beforeSend: null as null | ((d: { url: string; requestHeaders: Record<string, string> }, cb: (r: { requestHeaders: Record<string, string> }) => void) => void),
    permission: null as null | ((c: unknown, p: string, cb: (g: boolean) => void) => void),
    quit: 0,
    exit: [] as number[],
  };
  return state;
});

vi.mock('electron', () => {
  class BrowserWindow {
    private readonly rec: { options: Record<string, unknown>; url: string; shown: boolean };
    webContents = { getPrintersAsync: async () => [] };
    constructor(options: Record<string, unknown>) {
      this.rec = { options, url: '', shown: false };
      fake.windows.push(this.rec);
    }
    async loadURL(url: string) {
      this.rec.url = url;
    }
    once(_e: string, cb: () => void) {
      cb();
    }
    on() {}
    show() {
      this.rec.shown = true;
    }
    focus() {}
    isMinimized() {
      return false;
    }
    restore() {}
    static getFocusedWindow() {
      return null;
    }
  }
  return {
    app: {
      requestSingleInstanceLock: () => true,
      quit: () => void fake.quit++,
      exit: (code: number) => void fake.exit.push(code),
      whenReady: async () => {},
      on: (event: string, listener: Fn) => fake.appListeners.set(event, [...(fake.appListeners.get(event) ?? []), listener]),
      getPath: (name: string) => join(fake.dir, name),
      getVersion: () => '0.1.0',
      setLoginItemSettings: () => {},
    },
    BrowserWindow,
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: typeof fake.permission) => (fake.permission = h),
        setPermissionCheckHandler: () => {},
        webRequest: { onBeforeSendHeaders: (_f: unknown, l: typeof fake.beforeSend) => (fake.beforeSend = l) },
      },
    },
    ipcMain: {
      handle: (channel: string, h: (event: unknown, ...args: unknown[]) => unknown) => {
        fake.channels.push(channel);
        fake.handlers.set(channel, h);
      },
      removeHandler: () => {},
    },
    dialog: { showErrorBox: () => {}, showSaveDialog: async () => ({ canceled: true }) },
    shell: { openExternal: async () => {} },
  };
});

// electron-store imports electron; the app's settings run over `conf` here, in the temp folder.
vi.mock('electron-store', async () => {
  const { default: Conf } = await import('conf');
  return {
    default: class extends Conf<Record<string, unknown>> {
      constructor(opts: { name: string }) {
        super({ configName: opts.name, cwd: join(fake.dir, 'userData'), projectName: 'kitting-station-test' });
      }
    },
  };
});

function rawGet(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the desktop main process (electron mocked)', () => {
  let shell: Shell;
  let secret = '';

  beforeAll(async () => {
    fake.dir = mkdtempSync(join(tmpdir(), 'station-main-'));
    const main = await import('./main');
    shell = (await main.started)!;
    let headers: Record<string, string> = {};
    fake.beforeSend!({ url: `${shell.server.url}/api/devices`, requestHeaders: {} }, (r) => (headers = r.requestHeaders));
    secret = headers['x-station-secret'];
  });

  afterAll(async () => {
    await shell?.server.close();
    rmSync(fake.dir, { recursive: true, force: true });
  });

  it('starts the embedded server on 127.0.0.1 with a random port and opens one secure window on it', () => {
    expect(shell.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(shell.server.port).not.toBe(4300);
    expect(fake.windows).toHaveLength(1);
    const w = fake.windows[0];
    expect(w.url).toBe(`${shell.server.url}/`);
    expect(w.shown).toBe(true);
    expect(w.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(String((w.options.webPreferences as { preload: string }).preload)).toMatch(/preload\.cjs$/);
  });

  it('handles exactly the bridge channels and denies permissions', () => {
    expect([...fake.channels].sort()).toEqual(Object.values(CHANNELS).sort());
    const cb = vi.fn();
    fake.permission!(null, 'media', cb);
    expect(cb).toHaveBeenCalledWith(false);
  });

  it('the window’s requests carry the launch secret and reach the server; others are refused', async () => {
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const host = `127.0.0.1:${shell.server.port}`;
    const ok = await rawGet(shell.server.port, '/api/devices', { host, 'x-station-secret': secret });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).ok).toBe(true);
    expect((await rawGet(shell.server.port, '/api/devices', { host })).status).toBe(403);
    expect((await rawGet(shell.server.port, '/', { host })).status).toBe(403);
    expect((await rawGet(shell.server.port, '/api/devices', { host: `evil.example:${shell.server.port}`, 'x-station-secret': secret })).status).toBe(403);
  });

  it('a ZPL print from the window reaches the printer and lands in the server’s label print log', async () => {
    const { createServer } = await import('node:net');
    let got = '';
    const printer = createServer((sock) => {
      sock.on('data', (c) => (got += c.toString()));
      sock.on('end', () => sock.end());
    });
    await new Promise<void>((r) => printer.listen(0, '127.0.0.1', r));
    const port = (printer.address() as { port: number }).port;
    const frame = { senderFrame: { url: `${shell.server.url}/labels` } };
    try {
      const settings = (await fake.handlers.get(CHANNELS.setSettings)!(frame, { zebra: { host: '127.0.0.1', port } })) as { zebra: unknown };
      expect(settings.zebra).toEqual({ host: '127.0.0.1', port });
      expect(await fake.handlers.get(CHANNELS.printZpl)!(frame, { zpl: '^XA^FDtest^FS^XZ', count: 2, size: 's' })).toEqual({ ok: true });
      expect(got).toBe('^XA^FDtest^FS^XZ');
      const log = await rawGet(shell.server.port, '/api/labels/log', { host: `127.0.0.1:${shell.server.port}`, 'x-station-secret': secret });
      expect(JSON.parse(log.body).log[0]).toMatchObject({ size: 's', count: 2 });
      expect(() => fake.handlers.get(CHANNELS.getSettings)!({ senderFrame: { url: 'https://evil.example/' } })).toThrow(/refused/);
    } finally {
      await new Promise((r) => printer.close(r));
    }
  });

  it('keeps its database in the user data folder', async () => {
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(fake.dir, 'userData', 'data', 'kitting.db'))).toBe(true);
  });

  it('closes the server and the database before quitting', async () => {
    const [willQuit] = fake.appListeners.get('will-quit') as Array<(e: { preventDefault(): void }) => void>;
    const e = { preventDefault: vi.fn() };
    willQuit(e);
    expect(e.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.quit).toBe(1));
    await expect(rawGet(shell.server.port, '/api/devices', { 'x-station-secret': secret })).rejects.toThrow();
    // The second will-quit (from app.quit) lets the app go.
    const again = { preventDefault: vi.fn() };
    willQuit(again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });
});

describe('the embedded server as main starts it', () => {
  it('refuses a request without the launch secret, with a wrong one, and with a foreign Host header', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'station-guard-'));
    const { server, secret } = await launchServer(startEmbeddedServer, dir);
    try {
      const host = `127.0.0.1:${server.port}`;
      const none = await rawGet(server.port, '/api/devices', { host });
      expect(none.status).toBe(403);
      expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: 'launch_secret_required' });
      expect((await rawGet(server.port, '/api/devices', { host, 'x-station-secret': `${secret}x` })).status).toBe(403);
      const foreign = await rawGet(server.port, '/api/devices', { host: `attacker.example:${server.port}`, 'x-station-secret': secret });
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body)).toMatchObject({ ok: false, error: 'host_not_allowed' });
      expect((await rawGet(server.port, '/api/devices', { host: `127.0.0.1:${server.port + 1}`, 'x-station-secret': secret })).status).toBe(403);
      expect((await rawGet(server.port, '/api/devices', { host: `localhost:${server.port}`, 'x-station-secret': secret })).status).toBe(200);
      expect((await rawGet(server.port, '/', { host, 'x-station-secret': secret })).status).not.toBe(403);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses a fresh secret and a random port on every launch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'station-guard-'));
    const a = await launchServer(startEmbeddedServer, dir);
    await a.server.close();
    const b = await launchServer(startEmbeddedServer, dir);
    await b.server.close();
    rmSync(dir, { recursive: true, force: true });
    expect(a.secret).not.toBe(b.secret);
    expect(a.server.port).toBeGreaterThan(0);
  });
});
