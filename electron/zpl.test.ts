import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSettings, type SettingsBackend } from './settings';
import { createStationHandlers } from './station-handlers';
import { sendZpl, testZpl } from './zpl';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A fake Zebra printer on loopback: collects what each connection sends. */
async function fakePrinter(): Promise<{ port: number; received: Promise<string> }> {
  let resolveReceived: (s: string) => void = () => {};
  const received = new Promise<string>((r) => (resolveReceived = r));
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => {
      resolveReceived(Buffer.concat(chunks).toString('utf8'));
      socket.end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return { port: typeof addr === 'object' && addr ? addr.port : 0, received };
}

function handlers(backendSetup: (b: SettingsBackend) => void, logged: unknown[]) {
  const m = new Map<string, unknown>();
  const backend: SettingsBackend = { get: (k) => m.get(k), set: (k, v) => void m.set(k, v) };
  backendSetup(backend);
  return createStationHandlers({
    settings: createSettings(backend),
    server: {
      url: 'http://127.0.0.1:1',
      request: async (_m, _p, body) => {
        logged.push(body);
        return { status: 200, body: { ok: true }, contentType: 'application/json', bytes: new Uint8Array() };
      },
    },
    printers: { getPrintersAsync: async () => [] },
    createPrintWindow: () => {
      throw new Error('no window for ZPL');
    },
    chooseSavePath: async () => null,
    writeFile: async () => {},
    versions: () => ({ app: '', electron: '', chrome: '', node: '', platform: '' }),
    setStartAtLogin: () => {},
    warn: () => {},
  });
}

describe('raw ZPL to a networked Zebra printer', () => {
  it('sends the ZPL to the configured host:port and logs the labels', async () => {
    const printer = await fakePrinter();
    const logged: unknown[] = [];
    const h = handlers((b) => b.set('zebra', { host: '127.0.0.1', port: printer.port }), logged);
    const zpl = '^XA^FO50,50^A0N,40,40^FDHK-26-0001^FS^XZ';
    expect(await h.printZpl({ zpl, count: 1, size: 's' })).toEqual({ ok: true });
    expect(await printer.received).toBe(zpl);
    expect(logged).toEqual([expect.objectContaining({ size: 's', count: 1, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })]);
  });

  it('a host and port in the request win over the settings', async () => {
    const printer = await fakePrinter();
    const h = handlers((b) => b.set('zebra', { host: '127.0.0.2', port: 1 }), []);
    expect(await h.printZpl({ zpl: '^XA^XZ', host: '127.0.0.1', port: printer.port })).toEqual({ ok: true });
    expect(await printer.received).toBe('^XA^XZ');
  });

  it('the Zebra test print sends one ASCII test label', async () => {
    const printer = await fakePrinter();
    const h = handlers((b) => {
      b.set('zebra', { host: '127.0.0.1', port: printer.port });
      b.set('benchName', '東京 bench');
    }, []);
    expect(await h.testPrint('zebra')).toEqual({ ok: true });
    const got = await printer.received;
    expect(got.startsWith('^XA')).toBe(true);
    expect(got.trim().endsWith('^XZ')).toBe(true);
    expect(got).toContain('?? bench');
    expect(testZpl('a^b', 'x')).not.toContain('a^b');
  });

  it('reports a refused connection, a missing host and empty ZPL in Japanese', async () => {
    const printer = await fakePrinter();
    await new Promise((r) => servers.pop()!.close(r));
    const refused = await sendZpl({ host: '127.0.0.1', port: printer.port, zpl: '^XA^XZ' });
    expect(refused).toEqual({ ok: false, reason: `プリンター 127.0.0.1:${printer.port} に接続できません（接続拒否）` });
    expect(await sendZpl({ host: ' ', zpl: '^XA^XZ' })).toEqual({ ok: false, reason: 'Zebraプリンターのホストが設定されていません' });
    expect(await sendZpl({ host: '127.0.0.1', zpl: '  ' })).toEqual({ ok: false, reason: 'ZPLが空です' });
  });

  it('a failed ZPL print returns its reason and is logged as failed with it', async () => {
    const logged: unknown[] = [];
    const h = handlers(() => {}, logged);
    expect(await h.printZpl({ zpl: '^XA^XZ' })).toEqual({ ok: false, reason: 'Zebraプリンターのホストが設定されていません' });
    expect(logged).toEqual([expect.objectContaining({ result: 'failed', reason: 'Zebraプリンターのホストが設定されていません' })]);
  });
});
