import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../server-config';
import { loadOrCreateSecret } from '../../core/security/signing';
import { PgStore } from './pg-store';
import { SqliteStore } from './sqlite-store';
import type { Store } from './types';

export interface OpenedStore {
  store: Store;
  /** The signing secret every process of this deployment shares. */
  secret: Buffer;
  close: () => Promise<void>;
}

/** Meta key of the signing secret of a PostgreSQL deployment (shared by its central processes). */
export const SECRET_META_KEY = 'signing_secret';

/**
 * The store of a server process: PostgreSQL when central has KITTING_DATABASE_URL, else the SQLite file in
 * the data folder. On PostgreSQL the signing secret lives in the database, so cookies and tokens one central
 * process signs are valid at every other; the first process keeps its data folder's secret.key when there is one.
 */
export async function openStore(config: Config): Promise<OpenedStore> {
  if (config.databaseUrl) {
    const store = await PgStore.open({ url: config.databaseUrl, poolSize: Number(process.env.KITTING_DATABASE_POOL ?? 10) || 10 });
    const local = existsSync(join(config.dataDir, 'secret.key')) ? loadOrCreateSecret(config.dataDir) : null;
    const hex = await store.claimMeta(SECRET_META_KEY, (local ?? cryptoRandom()).toString('hex'));
    return { store, secret: Buffer.from(hex, 'hex'), close: () => store.end() };
  }
  const store = new SqliteStore({ file: join(config.dataDir, 'kitting.db') });
  return { store, secret: loadOrCreateSecret(config.dataDir), close: async () => store.close() };
}

function cryptoRandom(): Buffer {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}
