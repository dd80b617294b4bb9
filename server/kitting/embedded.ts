import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { boot } from './boot';
import { readConfig } from './server-config';
import { loadOrCreateSecret } from '../core/security/signing';
import { SqliteStore } from './store/sqlite-store';


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
  let secret: Buffer;
  try {
    secret = loadOrCreateSecret(opts.dataDir);
  } catch (err) {
    store.close();
    throw err;
  }
  const running = await boot({ store, config, secret, mode: 'bench', launchGuard: { secret: opts.launchSecret }, port: opts.port ?? 0, closeStore: () => store.close() });
  return { url: running.url, port: running.port, close: running.close };
}
