import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** The only web preferences any window of the app gets (main window and hidden print windows). */
function secureWebPreferences(preload?: string): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    ...(preload ? { preload } : {}),
  };
}

export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 1024,
    minHeight: 680,
    show: false,
    title: 'Kitting Station',
    backgroundColor: '#f6f7f9',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload),
  };
}

/** A hidden window used only to lay out and print one document (no preload, no bridge). */
export function printWindowOptions(): BrowserWindowConstructorOptions {
  return { show: false, width: 800, height: 1100, webPreferences: secureWebPreferences() };
}

export function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

interface PreventableEvent {
  preventDefault(): void;
}

/** The parts of WebContents the hardening touches. */
export interface HardenableContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Every web contents of the app: no page-initiated navigation or redirect away from the
 * embedded server (the main process's own loadURL, e.g. of a print document, is not affected),
 * no new windows (https links go to the system browser instead), no <webview>.
 */
export function hardenContents(contents: HardenableContents, origin: () => string | null, openExternal?: (url: string) => void): void {
  const guard = (event: PreventableEvent, url: string) => {
    const o = origin();
    if (!o || !sameOrigin(url, o)) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (openExternal && /^https:\/\//i.test(url)) openExternal(url);
    return { action: 'deny' };
  });
}

type Headers = Record<string, string | string[]>;

/** The parts of Session the hardening touches. */
export interface HardenableSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  webRequest: {
    onBeforeSendHeaders(
      filter: { urls: string[] },
      listener: (details: { url: string; requestHeaders: Headers }, callback: (response: { requestHeaders: Headers }) => void) => void,
    ): void;
  };
}

export const SECRET_HEADER = 'x-station-secret';

/**
 * Deny every permission request (camera, notifications, geolocation, ...), and add the
 * per-launch secret to every request to the embedded server — and only to it.
 */
export function hardenSession(session: HardenableSession, opts: { origin: string; secret: string }): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  const { host } = new URL(opts.origin);
  session.webRequest.onBeforeSendHeaders({ urls: [`http://${host}/*`] }, (details, callback) => {
    const requestHeaders = { ...details.requestHeaders };
    if (sameOrigin(details.url, opts.origin)) requestHeaders[SECRET_HEADER] = opts.secret;
    callback({ requestHeaders });
  });
}
