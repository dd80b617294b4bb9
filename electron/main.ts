import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import ElectronStore from 'electron-store';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedServer } from '../server/kitting/embedded';
import { createSettings } from './settings';
import { startShell, type Shell } from './shell';

// Thin Electron entry: every decision lives in shell.ts and the modules it wires (tested without Electron).
const here = dirname(fileURLToPath(import.meta.url));
const store = new ElectronStore<Record<string, unknown>>({ name: 'settings' });

export const started: Promise<Shell | null> = startShell({
  app,
  createMainWindow: (options) => new BrowserWindow(options),
  createPrintWindow: (options) => new BrowserWindow(options),
  session: session.defaultSession,
  ipcMain,
  settings: createSettings({ get: (key) => store.get(key), set: (key, value) => store.set(key, value) }),
  startServer: startEmbeddedServer,
  preloadPath: join(here, 'preload.cjs'),
  versions: () => ({
    app: app.getVersion(),
    electron: process.versions.electron ?? '',
    chrome: process.versions.chrome ?? '',
    node: process.versions.node,
    platform: process.platform,
  }),
  openExternal: (url) => void shell.openExternal(url),
  chooseSavePath: async (defaultName) => {
    const owner = BrowserWindow.getFocusedWindow();
    const options = { defaultPath: join(app.getPath('documents'), defaultName), filters: [{ name: 'PDF', extensions: ['pdf'] }] };
    const r = owner ? await dialog.showSaveDialog(owner, options) : await dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? null : r.filePath;
  },
  writeFile: (file, bytes) => writeFile(file, bytes),
  showError: (title, message) => dialog.showErrorBox(title, message),
});

started.catch((err: unknown) => {
  dialog.showErrorBox('Kitting Station を起動できません', err instanceof Error ? (err.stack ?? err.message) : String(err));
  app.exit(1);
});
