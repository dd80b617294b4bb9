import { BRIDGE_METHODS, CHANNELS, type StationBridge } from '../shared/station-bridge';

export interface IpcInvokeEvent {
  senderFrame?: { url: string } | null;
}

/** The parts of ipcMain this app uses: invoke handlers only (no `on` listeners). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/**
 * Handle exactly the declared channels. Each call is checked: it must come from a frame of
 * the app's own origin, with at most one argument. Returns a function removing the handlers.
 */
export function registerIpc(ipcMain: IpcMainLike, handlers: StationBridge, isTrustedFrame: (url: string) => boolean): () => void {
  for (const method of BRIDGE_METHODS) {
    const channel = CHANNELS[method];
    const handler = handlers[method] as (arg?: unknown) => Promise<unknown>;
    ipcMain.handle(channel, (event, ...args) => {
      const url = event.senderFrame?.url ?? '';
      if (!isTrustedFrame(url)) throw new Error(`${channel}: refused for ${url || 'an unknown frame'}`);
      if (args.length > 1) throw new Error(`${channel}: expects at most one argument`);
      return handler(args[0]);
    });
  }
  return () => {
    for (const method of BRIDGE_METHODS) ipcMain.removeHandler(CHANNELS[method]);
  };
}
