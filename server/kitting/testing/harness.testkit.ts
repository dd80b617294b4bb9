import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../app';
import type { Config, Mode } from '../server-config';
import { testConfig } from './config.testkit';
import type { AppContext } from '../context';
import { setPasswordCost } from '../../core/security/passwords';
import { loadOrCreateSecret } from '../../core/security/signing';
import type { Store } from '../store/types';
import { openTestStore, testStoreKind, type StoreKind } from './stores.testkit';

export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A cookie jar per simulated browser. */
export class Client {
  private readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The workspace named by this browser's kit_tid cookie (null before the first request). */
  workspaceId(): string | null {
    const raw = this.cookies.get('kit_tid');
    if (!raw) return null;
    const v = decodeURIComponent(raw);
    return v.slice(0, v.lastIndexOf('.'));
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.base + path, { method, headers: h, body: payload });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = Record<string, unknown>>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }

  put<T = Record<string, unknown>>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
}

export interface TestServer {
  url: string;
  dataDir: string;
  store: Store;
  /** The store this server runs on (PostgreSQL in the `pg` test project, SQLite for a bench). */
  storeKind: StoreKind;
  ctx: AppContext;
  /** A new browser (own cookie jar). */
  client(): Client;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export const FAST_TEST_COST = { ln: 12, r: 8, p: 1 };

/**
 * createApp over a fresh temporary database, listening on a random loopback port. A central server runs on
 * the store of the test run (KITTING_TEST_STORE, or `store`); a bench always on SQLite, as deployed.
 * Restart a server on its data with `dataDir` (after `close({keepData: true})`) and, if needed, `port`.
 */
export async function startTestServer(opts: { mode?: Mode; dataDir?: string; config?: Partial<Config>; store?: StoreKind; port?: number } = {}): Promise<TestServer> {
  // Password hashing at OWASP cost takes seconds on a busy test machine; tests of other features hash
  // cheaply (the password tests check the production parameters and the rehash themselves).
  setPasswordCost(FAST_TEST_COST);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kitting-test-'));
  const mode = opts.mode ?? 'central';
  const kind = mode === 'bench' ? 'sqlite' : (opts.store ?? testStoreKind());
  const opened = await openTestStore(kind, dataDir);
  const store = opened.store;
  const config = testConfig({ dataDir, mode, ...opts.config });
  const { app, ctx } = await createApp({ store, config, secret: loadOrCreateSecret(dataDir) });
  const server: Server = await new Promise((resolve, reject) => {
    // A given port: a server restarted where its clients (an enrolled bench) expect it.
    const s = app.listen(opts.port ?? 0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const addr = server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    url,
    dataDir,
    store,
    storeKind: kind,
    ctx,
    client: () => new Client(url),
    close: async ({ keepData = false } = {}) => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await opened.dispose(keepData);
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
