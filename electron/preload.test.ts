import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_METHODS, CHANNELS } from '../shared/station-bridge';

const exposed = vi.hoisted(() => ({ calls: [] as Array<[string, unknown]> }));
const invoke = vi.hoisted(() => vi.fn(async (..._args: unknown[]) => 'answer'));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.calls.push([key, api]) },
  ipcRenderer: { invoke, send: vi.fn(), on: vi.fn() },
}));

describe('preload', () => {
  beforeEach(async () => {
    exposed.calls.length = 0;
    vi.resetModules();
    await import('./preload');
  });

  it('exposes one object, window.station, with exactly the declared methods', () => {
    expect(exposed.calls.map(([k]) => k)).toEqual(['station']);
    const api = exposed.calls[0][1] as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...BRIDGE_METHODS].sort());
    expect(Object.keys(api).sort()).toEqual(
      ['enrol', 'getSettings', 'listPrinters', 'printCertificate', 'printLabel', 'printZpl', 'savePdf', 'setSettings', 'testPrint', 'version'],
    );
    for (const v of Object.values(api)) expect(typeof v).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('each method invokes its own channel with its argument', async () => {
    const api = exposed.calls[0][1] as Record<string, (arg?: unknown) => Promise<unknown>>;
    invoke.mockClear();
    await expect(api.printLabel({ html: '<p>', widthMm: 60, heightMm: 40 })).resolves.toBe('answer');
    await api.getSettings();
    expect(invoke.mock.calls).toEqual([[CHANNELS.printLabel, { html: '<p>', widthMm: 60, heightMm: 40 }], [CHANNELS.getSettings]]);
  });
});
