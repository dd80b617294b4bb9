import type { Request } from 'express';
import type { Level, Role, Scope } from './security/policy';
import type { Config, Mode } from './server-config';
import type { CollectionSchema } from './http/collection-schema';
import type { Store } from './store/types';
import type { SeedSpec } from './store/seed';

/**
 * What a part of kitting adds to the context, declared by that part itself through interface merging
 * (`declare module '…/kitting/context' { interface AppExtensions { … } }`, as the sync runtime does).
 */
export interface AppExtensions {}

/** Everything a route handler may use besides its request. */
export interface AppContext extends AppExtensions {
  mode: Mode;
  config: Config;
  store: Store;
  /** Per-install HMAC secret for kit_tid and every other token. */
  secret: Buffer;
  /** The bench's own workspace (bench mode). */
  benchWorkspace: string | null;
  log: (line: string) => void;
  /** The seed data a new workspace starts with (the app's seed specs). */
  seeds: SeedSpec[];
  /** The fields a new tenant record starts with, by workspace kind (the app's plan and labels; core adds id, kind, created). */
  tenantDefaults?: (kind: string) => Record<string, unknown>;
  /** Declared record schemas by collection (sync pushes are checked against them). */
  collections?: ReadonlyMap<string, CollectionSchema>;
  /** Central: the enrolled bench a sync request's token names (refusing unknown or revoked tokens). */
  authenticateBench?: (req: Request) => Promise<{ ws: string; bench: string; role: Role | null; scopes?: Partial<Record<Scope, Level>> }>;
  /** Records a write made in assist mode in the workspace's audit log, as the operator (`by`) who made it. */
  auditAssist?: (ws: string, by: string, action: string) => Promise<void>;
}
