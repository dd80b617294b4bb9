import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_METHODS, CHANNELS, type StationBridge } from '../shared/station-bridge';
import { registerIpc, type IpcInvokeEvent, type IpcMainLike } from './ipc';

function fakeIpc() {
  const handlers = new Map<string, (event: IpcInvokeEvent, ...args: unknown[]) => unknown>();
  const ipc: IpcMainLike & { on: ReturnType<typeof vi.fn> } = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => handlers.delete(channel),
    on: vi.fn(),
  };
  return { ipc, handlers };
}

function fakeBridge(): StationBridge {
  const b: Record<string, unknown> = {};
  for (const m of BRIDGE_METHODS) b[m] = vi.fn(async (arg?: unknown) => ({ method: m, arg }));
  return b as unknown as StationBridge;
}

const appFrame = { senderFrame: { url: 'http://127.0.0.1:4000/devices' } };
const trusted = (url: string) => url.startsWith('http://127.0.0.1:4000/');

describe('IPC channels', () => {
  it('handles exactly the declared channels and installs no other listener', () => {
    const { ipc, handlers } = fakeIpc();
    registerIpc(ipc, fakeBridge(), trusted);
    expect([...handlers.keys()].sort()).toEqual(Object.values(CHANNELS).sort());
    expect(handlers.size).toBe(10);
    expect(ipc.on).not.toHaveBeenCalled();
  });

  it('routes each channel to its method with the one argument', async () => {
    const { ipc, handlers } = fakeIpc();
    registerIpc(ipc, fakeBridge(), trusted);
    await expect(handlers.get('station:print-label')!(appFrame, { html: 'x' })).resolves.toEqual({ method: 'printLabel', arg: { html: 'x' } });
    await expect(handlers.get('station:get-settings')!(appFrame)).resolves.toEqual({ method: 'getSettings', arg: undefined });
  });

  it('refuses calls from a frame of another origin or with extra arguments', () => {
    const { ipc, handlers } = fakeIpc();
    const bridge = fakeBridge();
    registerIpc(ipc, bridge, trusted);
    const h = handlers.get('station:set-settings')!;
    expect(() => h({ senderFrame: { url: 'https://evil.example/' } }, {})).toThrow(/refused/);
    expect(() => h({ senderFrame: null }, {})).toThrow(/refused/);
    expect(() => h(appFrame, {}, 'extra')).toThrow(/at most one argument/);
    expect(bridge.setSettings).not.toHaveBeenCalled();
  });

  it('removes its handlers on dispose', () => {
    const { ipc, handlers } = fakeIpc();
    const dispose = registerIpc(ipc, fakeBridge(), trusted);
    dispose();
    expect(handlers.size).toBe(0);
  });
});
