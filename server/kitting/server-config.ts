import { join, resolve } from 'node:path';
import { parseTrustProxy } from '../core/http/trust-proxy';

export type Mode = 'bench' | 'central';

export interface Config {
  port: number;
  dataDir: string;
  mode: Mode;
  /** Master password for /api/admin/login; admin sign-in is refused while unset. */
  adminPassword: string | null;
  backupToken: string | null;
  nodeEnv: string;
  production: boolean;
  /** Human-readable request log on stdout. */
  log: boolean;
  /** Largest JSON body accepted (the company logo may be a 6 MB data URL). */
  bodyLimit: string;
  /** New anonymous workspaces one IP may create per hour (central mode). */
  workspacesPerIpHour: number;
  /** Central: PostgreSQL database (postgres://…) instead of the SQLite file in dataDir. */
  databaseUrl: string | null;
  /**
   * Reverse-proxy hops whose X-Forwarded-For is believed (KITTING_TRUST_PROXY): 0 reads the
   * client address from the connection; 1 trusts one proxy in front (nginx, a load balancer).
   */
  trustProxy: number;
  /** Extra Host names the headless bench answers besides loopback (KITTING_ALLOWED_HOSTS, comma-separated). */
  allowedHosts: string[];
  /**
   * The address customers reach this server at (KITTING_PUBLIC_URL, e.g. https://kitting.example.co.jp):
   * links sent outside (customer portal) are built on it. Null when unset.
   */
  publicUrl: string | null;
}

/** KITTING_PUBLIC_URL as an origin with an optional path prefix, no trailing slash; anything else is refused at start. */
export function readPublicUrl(v: string | undefined): string | null {
  if (v === undefined || v.trim() === '') return null;
  let u: URL;
  try {
    u = new URL(v.trim());
  } catch {
    throw new Error(`KITTING_PUBLIC_URL must be an http(s) URL such as https://kitting.example.co.jp, got ${v}`);
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || u.search || u.hash) {
    throw new Error(`KITTING_PUBLIC_URL must be an http(s) URL without credentials, query or fragment, got ${v}`);
  }
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

const trustProxy = (v: string | undefined): number => parseTrustProxy('KITTING_TRUST_PROXY', v);

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4300);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer 0..65535, got ${env.PORT}`);
  const mode = (env.KITTING_MODE ?? 'bench') as Mode;
  if (mode !== 'bench' && mode !== 'central') throw new Error(`KITTING_MODE must be bench or central, got ${env.KITTING_MODE}`);
  const nodeEnv = env.NODE_ENV ?? 'development';
  if (env.KITTING_ADMIN_PASSWORD && env.KITTING_ADMIN_PASSWORD.length < 10) throw new Error('KITTING_ADMIN_PASSWORD must be at least 10 characters');
  return {
    port,
    dataDir: resolve(env.KITTING_DATA_DIR ?? join(process.cwd(), 'data')),
    mode,
    adminPassword: env.KITTING_ADMIN_PASSWORD || null,
    backupToken: env.KITTING_BACKUP_TOKEN || null,
    nodeEnv,
    production: nodeEnv === 'production',
    log: nodeEnv !== 'test' && env.KITTING_LOG !== '0',
    bodyLimit: '9mb',
    workspacesPerIpHour: Number(env.KITTING_WORKSPACES_PER_IP_HOUR ?? 60),
    databaseUrl: readDatabaseUrl(env, mode),
    trustProxy: trustProxy(env.KITTING_TRUST_PROXY),
    allowedHosts: (env.KITTING_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    publicUrl: readPublicUrl(env.KITTING_PUBLIC_URL),
  };
}

function readDatabaseUrl(env: NodeJS.ProcessEnv, mode: Mode): string | null {
  const url = env.KITTING_DATABASE_URL || null;
  if (url === null) return null;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('KITTING_DATABASE_URL must be a postgres://user:password@host:port/database URL');
  if (mode !== 'central') throw new Error('KITTING_DATABASE_URL is for central mode (KITTING_MODE=central); a bench keeps its SQLite replica');
  return url;
}
