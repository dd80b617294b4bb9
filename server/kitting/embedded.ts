import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from './app';
import { readConfig } from '../core/config';
import type { AppContext } from '../core/context';
import { LAUNCH_SECRET_HEADER } from '../core/http/launch-guard';
import { loadOrCreateSecret } from '../core/security/signing';
import { SqliteStore } from '../core/store/sqlite-store';
import { startSync, stopSync } from './sync/start';

export { LAUNCH_SECRET_HEADER };

export interface EmbeddedServerOptions {
  /** Folder of the bench's SQLite replica and signing secret (the user's app-data folder). */
  dataDir: string;
  /** 0 (default) picks a random free port. */
  port?: number;
  /** Per-launch secret every request must carry in the x-station-secret header. */
  launchSecret: string;
  /** Human-readable request log on stdout. */
  log?: boolean;
}

export interface EmbeddedServer {
  url: string;
  port: number;
  /** Stop listening, drop open connections and close the database. */
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

/**
 * The desktop entry of the server: the same app as the headless build, in bench mode,
 * on 127.0.0.1 only, guarded by the launch secret and the Host header.
 */
export async function startEmbeddedServer(opts: EmbeddedServerOptions): Promise<EmbeddedServer> {
  mkdirSync(opts.dataDir, { recursive: true });
  const base = readConfig({ ...process.env, KITTING_MODE: 'bench', PORT: String(opts.port ?? 0), KITTING_DATA_DIR: opts.dataDir });
  // Plain http on loopback: cookies must not be marked Secure.
  const config = { ...base, production: false, log: opts.log ?? false };
  const store = new SqliteStore({ file: join(opts.dataDir, 'kitting.db') });
  let server: Server;
  let port: number;
  let ctx: AppContext | undefined;
  try {
    const secret = loadOrCreateSecret(opts.dataDir);
    const { app, ctx: appCtx } = await createApp({ store, config, secret, mode: 'bench', launchGuard: { secret: opts.launchSecret } });
    ctx = appCtx;
    server = createServer(app);
    port = await listen(server, opts.port ?? 0);
    // Background sync with central once enrolled (enrolment: POST /api/sync/enrol); never blocks start-up.
    await startSync(ctx, [], process.env);
  } catch (err) {
    if (ctx) await stopSync(ctx);
    store.close();
    throw err;
  }
  const running: AppContext = ctx;
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> =>
    (closing ??= stopSync(running).then(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => {
            store.close();
            resolve();
          });
          server.closeAllConnections();
        }),
    ));
  return { url: `http://127.0.0.1:${port}`, port, close };
}
