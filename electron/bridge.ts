import { BRIDGE_METHODS, CHANNELS, type StationBridge } from '../shared/station-bridge';

export type Invoke = (channel: string, ...args: unknown[]) => Promise<unknown>;

/**
 * The object the preload exposes as `window.station`: one named method per declared channel,
 * each forwarding its single argument to ipcRenderer.invoke. Nothing else (no raw ipcRenderer,
 * no generic send, no secret) crosses the context bridge.
 */
export function createBridge(invoke: Invoke): StationBridge {
  const bridge: Record<string, (arg?: unknown) => Promise<unknown>> = {};
  for (const method of BRIDGE_METHODS) {
    const channel = CHANNELS[method];
    bridge[method] = (arg?: unknown) => (arg === undefined ? invoke(channel) : invoke(channel, arg));
  }
  return Object.freeze(bridge) as unknown as StationBridge;
}
