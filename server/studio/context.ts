import type { OutboundPolicy } from '../core/security/ssrf';
import type { RateLimiter } from '../core/http/rate-limit';
import type { Mailer } from '../core/mail/mailer';
import type { StudioConfig } from './config';
import type { StudioDatabase, StudioDb } from './db';
import type { Platform } from './platform/platform';

/** Everything a studio route or tool may use besides its request. */
export interface StudioContext {
  config: StudioConfig;
  /** The studio's tables (Kysely over SQLite or a PostgreSQL pool). */
  db: StudioDb;
  /** The store behind `db`: its dialect, and close() on shutdown. */
  database: StudioDatabase;
  /** HS256 key of session tokens. */
  jwtKey: Uint8Array;
  /** HMAC secret of signed media urls. */
  urlSecret: Buffer;
  platform: Platform;
  /** Origin the studio is reached at (set once it listens); media urls start with it. */
  publicUrl: string;
  limits: { login: RateLimiter; register: RateLimiter; mcp: RateLimiter };
  /** Invitation mails. */
  mailer: Mailer;
  log: (line: string) => void;
  /** Outbound guard's test hook (CreateStudioOptions.allowInternal); false in every deployment. */
  outboundAllowInternal: OutboundPolicy['allowInternal'];
}

import type { Role } from './schema';
export type { Role };
const ROLES: readonly Role[] = ['owner', 'editor', 'viewer', 'client'];

/** Who is calling: resolved once per request by the auth check of section 5. */
export interface Caller {
  ws: number;
  uid: number | null;
  email: string | null;
  role: Role;
  /** `user:<id>`, `api-key:<prefix>`, `legacy` or `demo`. */
  actor: string;
  apiKeyId: string | null;
  /** The session a session token names (logout ends it); null for API keys, legacy and demo callers. */
  sid?: string | null;
}
