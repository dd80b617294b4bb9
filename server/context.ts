import type { Request } from 'express';
import type { Role } from './security/policy';
import type { Config, Mode } from './config';
import type { CollectionSchema } from './http/collection-schema';
import type { RateLimiter } from './http/rate-limit';
import type { Store } from './store/types';
import type { SyncRuntime } from './sync/runtime';

/** Everything a route handler may use besides its request. */
export interface AppContext {
  mode: Mode;
  config: Config;
  store: Store;
  /** Per-install HMAC secret for kit_tid and every other token. */
  secret: Buffer;
  /** The bench's own workspace (bench mode). */
  benchWorkspace: string | null;
  limits: { newWorkspace: RateLimiter };
  log: (line: string) => void;
  /** Declared record schemas by collection (sync pushes are checked against them). */
  collections?: ReadonlyMap<string, CollectionSchema>;
  /** Bench sync client or central sync endpoints (set by createApp). */
  sync?: SyncRuntime;
  /** Central: the enrolled bench a sync request's token names (refusing unknown or revoked tokens). */
  authenticateBench?: (req: Request) => Promise<{ ws: string; bench: string; role: Role | null }>;
}
