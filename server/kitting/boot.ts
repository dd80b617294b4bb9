import { createServer, type Server } from 'node:http';
import { createApp, type CreateAppOptions } from './app';
import type { AppContext } from './context';
import { startSync, stopSync } from './sync/start';

export interface BootOptions extends CreateAppOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Closes the store once the server has stopped (or when start-up fails). */
  closeStore: () => void | Promise<void>;
  /** Command line and environment the background sync reads (central URL, interval). */
  syncArgv?: string[];
  syncEnv?: NodeJS.ProcessEnv;
}

export interface Running {
  url: string;
  port: number;
  ctx: AppContext;
  /** Stop the sync loop, stop listening, drop open connections and close the store (once). */
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/** The one start and close sequence of the kitting server (headless entry and desktop bench alike). */
export async function boot(opts: BootOptions): Promise<Running> {
  const { port: wanted, closeStore, syncArgv = [], syncEnv = process.env, ...appOpts } = opts;
  let server: Server;
  let port: number;
  let ctx: AppContext | undefined;
  try {
    const made = await createApp(appOpts);
    ctx = made.ctx;
    server = createServer(made.app);
    port = await listen(server, wanted);
    // Background sync with central once enrolled (enrolment: POST /api/sync/enrol); never blocks start-up.
    await startSync(ctx, syncArgv, syncEnv);
  } catch (err) {
    if (ctx) await stopSync(ctx);
    await closeStore();
    throw err;
  }
  const running: AppContext = ctx;
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> =>
    (closing ??= stopSync(running).then(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => {
            void Promise.resolve(closeStore()).finally(resolve);
          });
          server.closeAllConnections();
        }),
    ));
  return { url: `http://127.0.0.1:${port}`, port, ctx: running, close };
}
