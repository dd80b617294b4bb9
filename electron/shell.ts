import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';
import type { EmbeddedServer, EmbeddedServerOptions } from '../server/kitting/embedded';
import type { VersionInfo } from '../shared/station-bridge';
import { registerIpc, type IpcMainLike } from './ipc';
import type { PrinterSource, PrintWindow } from './printing';
import { createServerClient } from './server-client';
import type { Settings } from './settings';
import { createStationHandlers } from './station-handlers';
import { hardenContents, hardenSession, mainWindowOptions, printWindowOptions, sameOrigin, type HardenableContents, type HardenableSession } from './window';

interface PreventableEvent {
  preventDefault(): void;
}

/** The parts of Electron's `app` the shell uses. */
export interface AppLike {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  exit(code: number): void;
  whenReady(): Promise<unknown>;
  on(event: 'second-instance' | 'window-all-closed', listener: () => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: HardenableContents) => void): unknown;
  on(event: 'will-quit', listener: (event: PreventableEvent) => void): unknown;
  getPath(name: 'userData'): string;
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
}

export interface MainWindow {
  webContents: PrinterSource;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  show(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
}

export interface ShellDeps {
  app: AppLike;
  createMainWindow(options: BrowserWindowConstructorOptions): MainWindow;
  createPrintWindow(options: BrowserWindowConstructorOptions): PrintWindow;
  session: HardenableSession;
  ipcMain: IpcMainLike;
  settings: Settings;
  startServer(opts: EmbeddedServerOptions): Promise<EmbeddedServer>;
  preloadPath: string;
  versions(): VersionInfo;
  openExternal(url: string): void;
  chooseSavePath(defaultName: string): Promise<string | null>;
  writeFile(file: string, bytes: Uint8Array): Promise<void>;
  showError(title: string, message: string): void;
}

export interface Shell {
  server: EmbeddedServer;
  window: MainWindow;
}

/** Start the embedded server the way the desktop app does: random port, fresh launch secret. */
export async function launchServer(
  startServer: (opts: EmbeddedServerOptions) => Promise<EmbeddedServer>,
  dataDir: string,
): Promise<{ server: EmbeddedServer; secret: string }> {
  const secret = randomBytes(32).toString('base64url');
  const server = await startServer({ dataDir, port: 0, launchSecret: secret });
  return { server, secret };
}

/**
 * The bench app: one instance, the embedded server over the SQLite replica in the user's
 * app-data folder, one hardened window loading the renderer from that server, and a
 * shutdown that closes the server and the database before the process exits.
 * Nothing here needs the network: sync and enrolment are the server's business.
 */
export async function startShell(deps: ShellDeps): Promise<Shell | null> {
  const { app } = deps;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  let origin: string | null = null;
  let win: MainWindow | null = null;

  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, () => origin, deps.openExternal));
  app.on('window-all-closed', () => app.quit());

  await app.whenReady();

  let server: EmbeddedServer;
  let secret: string;
  try {
    ({ server, secret } = await launchServer(deps.startServer, join(app.getPath('userData'), 'data')));
  } catch (err) {
    deps.showError('Kitting Station を起動できません', `データベースを開けませんでした。\n${err instanceof Error ? err.message : String(err)}`);
    app.exit(1);
    return null;
  }
  const appOrigin = server.url;
  origin = appOrigin;
  hardenSession(deps.session, { origin: appOrigin, secret });

  const mainWindow = deps.createMainWindow(mainWindowOptions(deps.preloadPath));
  win = mainWindow;
  const handlers = createStationHandlers({
    settings: deps.settings,
    server: createServerClient(appOrigin, secret),
    printers: mainWindow.webContents,
    createPrintWindow: () => deps.createPrintWindow(printWindowOptions()),
    chooseSavePath: deps.chooseSavePath,
    writeFile: deps.writeFile,
    versions: deps.versions,
    setStartAtLogin: (openAtLogin) => app.setLoginItemSettings({ openAtLogin }),
  });
  const disposeIpc = registerIpc(deps.ipcMain, handlers, (url) => sameOrigin(url, appOrigin));

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    disposeIpc();
    void server.close().then(
      () => {
        closed = true;
        app.quit();
      },
      () => app.exit(1),
    );
  });

  app.setLoginItemSettings({ openAtLogin: deps.settings.get().startAtLogin });
  mainWindow.once('ready-to-show', () => mainWindow.show());
  mainWindow.on('closed', () => {
    win = null;
  });
  await mainWindow.loadURL(`${appOrigin}/`);
  return { server, window: mainWindow };
}
