import { describe, expect, it, vi } from 'vitest';
import { hardenContents, hardenSession, mainWindowOptions, printWindowOptions, type HardenableContents, type HardenableSession } from './window';

type Listener = (...args: never[]) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((d: { url: string }) => { action: 'deny' }) | null = null;
  const contents = {
    on: (event: string, listener: Listener) => listeners.set(event, listener),
    setWindowOpenHandler: (h: (d: { url: string }) => { action: 'deny' }) => {
      openHandler = h;
    },
  } as unknown as HardenableContents;
  const navigate = (event: 'will-navigate' | 'will-redirect', url: string) => {
    const e = { preventDefault: vi.fn() };
    (listeners.get(event) as unknown as (e: unknown, url: string) => void)(e, url);
    return e.preventDefault.mock.calls.length > 0;
  };
  return { contents, listeners, navigate, open: (url: string) => openHandler?.({ url }) };
}

describe('window options', () => {
  it('main window: context isolation, sandbox, no node integration, preload set', () => {
    const wp = mainWindowOptions('/app/preload.cjs').webPreferences!;
    expect(wp).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/preload.cjs',
    });
    expect(mainWindowOptions('/p').show).toBe(false);
  });

  it('print windows are just as locked down and get no preload (no bridge)', () => {
    const wp = printWindowOptions().webPreferences!;
    expect(wp).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(wp.preload).toBeUndefined();
    expect(printWindowOptions().show).toBe(false);
  });
});

describe('navigation and new windows', () => {
  const origin = 'http://127.0.0.1:51234';

  it('blocks navigation and redirects away from the embedded server', () => {
    const f = fakeContents();
    hardenContents(f.contents, () => origin);
    expect(f.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(f.navigate('will-navigate', 'http://127.0.0.1:9999/')).toBe(true);
    expect(f.navigate('will-navigate', 'http://localhost:51234/')).toBe(true);
    expect(f.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(f.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(f.navigate('will-navigate', `${origin}/devices`)).toBe(false);
  });

  it('blocks every navigation before the server is known', () => {
    const f = fakeContents();
    hardenContents(f.contents, () => null);
    expect(f.navigate('will-navigate', `${origin}/`)).toBe(true);
  });

  it('denies window.open; https links go to the system browser, nothing else does', () => {
    const f = fakeContents();
    const openExternal = vi.fn();
    hardenContents(f.contents, () => origin, openExternal);
    expect(f.open('https://example.com/help')).toEqual({ action: 'deny' });
    expect(f.open(`${origin}/popup`)).toEqual({ action: 'deny' });
    expect(f.open('file:///C:/Windows/system32/calc.exe')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.com/help']]);
  });

  it('refuses <webview>', () => {
    const f = fakeContents();
    hardenContents(f.contents, () => origin);
    const e = { preventDefault: vi.fn() };
    (f.listeners.get('will-attach-webview') as unknown as (e: unknown) => void)(e);
    expect(e.preventDefault).toHaveBeenCalled();
  });
});

describe('session', () => {
  function fakeSession() {
    const s = {
      request: null as null | ((c: unknown, p: string, cb: (g: boolean) => void) => void),
      check: null as null | (() => boolean),
      filter: null as null | { urls: string[] },
      beforeSend: null as null | ((d: { url: string; requestHeaders: Record<string, string | string[]> }, cb: (r: { requestHeaders: Record<string, string | string[]> }) => void) => void),
    };
    const session: HardenableSession = {
      setPermissionRequestHandler: (h) => (s.request = h),
      setPermissionCheckHandler: (h) => (s.check = h),
      webRequest: {
        onBeforeSendHeaders: (filter, listener) => {
          s.filter = filter;
          s.beforeSend = listener;
        },
      },
    };
    return { s, session };
  }

  it('denies every permission request and check', () => {
    const { s, session } = fakeSession();
    hardenSession(session, { origin: 'http://127.0.0.1:4000', secret: 'sek' });
    for (const perm of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const cb = vi.fn();
      s.request!(null, perm, cb);
      expect(cb).toHaveBeenCalledWith(false);
    }
    expect(s.check!()).toBe(false);
  });

  it('adds the launch secret to requests of the app origin only', () => {
    const { s, session } = fakeSession();
    hardenSession(session, { origin: 'http://127.0.0.1:4000', secret: 'sek' });
    expect(s.filter).toEqual({ urls: ['http://127.0.0.1:4000/*'] });
    const send = (url: string) => {
      let out: Record<string, string | string[]> = {};
      s.beforeSend!({ url, requestHeaders: { Accept: 'text/html' } }, (r) => (out = r.requestHeaders));
      return out;
    };
    expect(send('http://127.0.0.1:4000/api/devices')).toEqual({ Accept: 'text/html', 'x-station-secret': 'sek' });
    expect(send('http://127.0.0.1:4001/api/devices')).toEqual({ Accept: 'text/html' });
    expect(send('https://central.example/api')).toEqual({ Accept: 'text/html' });
  });
});
