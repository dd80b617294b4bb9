import { resolve } from 'node:path';
import { readPrepareSwitch } from '../core/db/prepared';
import { parseTrustProxy } from '../core/http/trust-proxy';

/** Everything the studio reads from its environment (see README, "Publishing Studio"). */
export interface StudioConfig {
  port: number;
  dataDir: string;
  /** STUDIO_DATABASE_URL: the studio's tables on PostgreSQL; unset, SQLite in `<data>/studio.db`. */
  databaseUrl: string | null;
  /** STUDIO_DB_POOL_MAX (1..100, default 10): PostgreSQL connections of this process. */
  dbPoolMax: number;
  /** PostgreSQL statement_timeout of every connection (below the request timeout). */
  dbStatementTimeoutMs: number;
  /** STUDIO_DB_PREPARE (default on; `0` off): statements prepared once per PostgreSQL connection. */
  dbPrepare: boolean;
  /** PostgreSQL lock_timeout (SQLite: busy_timeout). */
  dbLockTimeoutMs: number;
  jwtSecret: string | null;
  adminSecret: string | null;
  cronSecret: string | null;
  legacyToken: string | null;
  demo: boolean;
  creditEnforcement: boolean;
  hfUrl: string | null;
  hfKey: string | null;
  /** How long the built-in local platform takes to finish a job. */
  localPlatformMs: number;
  /** Lifetime of signed media urls. */
  signedUrlMs: number;
  /** STUDIO_SMTP_URL: invitation mails go through it; unset, they are written to `<data>/outbox/`. */
  smtpUrl: string | null;
  /** STUDIO_APP_URL: origin of the links in mails (`<appUrl>/invite/<token>`); unset, the address the studio listens on. */
  appUrl: string | null;
  log: boolean;
  /** Reverse-proxy hops whose X-Forwarded-For / X-Forwarded-Proto are believed (STUDIO_TRUST_PROXY, 0..10). */
  trustProxy: number;
}

const str = (v: string | undefined): string | null => (v && v.trim() ? v.trim() : null);

export function readStudioConfig(env: NodeJS.ProcessEnv = process.env): StudioConfig {
  const port = Number(env.PORT ?? 4310);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const localMs = Number(env.STUDIO_LOCAL_PLATFORM_MS ?? 1500);
  const databaseUrl = str(env.STUDIO_DATABASE_URL);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('STUDIO_DATABASE_URL must be a postgres:// or postgresql:// URL');
  const poolMax = Number(env.STUDIO_DB_POOL_MAX ?? 10);
  if (!Number.isInteger(poolMax) || poolMax < 1 || poolMax > 100) throw new Error(`STUDIO_DB_POOL_MAX must be a whole number from 1 to 100, got ${env.STUDIO_DB_POOL_MAX}`);
  return {
    port,
    dataDir: resolve(env.STUDIO_DATA_DIR ?? './data/studio'),
    databaseUrl,
    dbPoolMax: poolMax,
    dbStatementTimeoutMs: 15_000,
    dbPrepare: readPrepareSwitch('STUDIO_DB_PREPARE', env.STUDIO_DB_PREPARE),
    dbLockTimeoutMs: 5_000,
    jwtSecret: str(env.STUDIO_JWT_SECRET),
    adminSecret: str(env.STUDIO_ADMIN_SECRET),
    cronSecret: str(env.STUDIO_CRON_SECRET),
    legacyToken: str(env.STUDIO_LEGACY_TOKEN),
    demo: env.STUDIO_DEMO === '1',
    creditEnforcement: env.STUDIO_CREDIT_ENFORCEMENT === '1',
    hfUrl: str(env.STUDIO_HF_URL)?.replace(/\/+$/, '') ?? null,
    hfKey: str(env.STUDIO_HF_KEY),
    localPlatformMs: Number.isFinite(localMs) && localMs >= 0 ? localMs : 1500,
    signedUrlMs: 24 * 3_600_000,
    smtpUrl: str(env.STUDIO_SMTP_URL),
    appUrl: str(env.STUDIO_APP_URL)?.replace(/\/+$/, '') ?? null,
    log: env.STUDIO_LOG !== '0' && env.NODE_ENV !== 'test',
    trustProxy: parseTrustProxy('STUDIO_TRUST_PROXY', env.STUDIO_TRUST_PROXY),
  };
}
