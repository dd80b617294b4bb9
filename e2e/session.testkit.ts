import { afterAll, beforeAll } from 'vitest';
import { launch, startServer, type Browser, type RunningServer } from './harness.testkit';

/** One server process and one browser for a test file, with the API and navigation helpers its tests share. */
export interface E2eSession {
  readonly server: RunningServer;
  readonly b: Browser;
  /** GET an API path in the browser's context (its cookies), answering the parsed JSON body. */
  api<T>(path: string): Promise<T>;
  /** POST JSON in the browser's context: the status and the parsed body. */
  post<T>(path: string, data: unknown): Promise<{ status: number; body: T }>;
  /**
   * Open a screen freshly loaded, whatever the window showed before: a change of the hash alone would keep
   * the page (and the data it loaded), so that navigation is followed by a reload. Waits for its data.
   */
  go(hash: string): Promise<void>;
}

export interface E2eOptions {
  /** Environment of the server process (e.g. a central server). */
  env?: Record<string, string>;
  /** Default time a locator waits, so a missing element fails its step with the locator's name. */
  timeout?: number;
}

/** Starts the server and the browser before the file's tests and closes both after them. */
export function e2eSession(opts: E2eOptions = {}): E2eSession {
  let server: RunningServer | undefined;
  let b: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(opts.env);
    b = await launch();
    if (opts.timeout) b.page.setDefaultTimeout(opts.timeout);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });
  const started = () => {
    if (!server || !b) throw new Error('the e2e server and browser start in beforeAll');
    return { server, b };
  };
  return {
    get server() {
      return started().server;
    },
    get b() {
      return started().b;
    },
    async api<T>(path: string): Promise<T> {
      const s = started();
      return (await (await s.b.context.request.get(`${s.server.url}${path}`)).json()) as T;
    },
    async post<T>(path: string, data: unknown): Promise<{ status: number; body: T }> {
      const s = started();
      const r = await s.b.context.request.post(`${s.server.url}${path}`, { data });
      return { status: r.status(), body: (await r.json()) as T };
    },
    async go(hash: string): Promise<void> {
      const { server: srv, b: br } = started();
      // null: the same document with another hash (no load); reloading makes the screen fetch its data anew
      if ((await br.page.goto(`${srv.url}/#${hash}`)) === null) await br.page.reload();
      await br.page.waitForFunction(() => !document.querySelector('.spinner'), undefined, { timeout: 10_000 });
    },
  };
}
