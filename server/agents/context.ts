import type { AgentsConfig } from './config';
import type { Database } from '../core/db/database';
import type { AgentsDB, AgentsDb } from './schema';
import type { Mailer } from './accounts/mailer';
import type { EngineSet } from './chat/engine';
import type { AgentsLimits } from './request';

/** Everything the platform's routes use besides their request. */
export interface AgentsContext {
  config: AgentsConfig;
  /** The platform's tables (Kysely over SQLite or a PostgreSQL pool). Repositories take it (or a transaction). */
  db: AgentsDb;
  /** The open store behind db: its dialect, and the SQLite connection or PostgreSQL pool. */
  database: Database<AgentsDB>;
  /** HS256 key of session tokens. */
  jwtKey: Uint8Array;
  mailer: Mailer;
  engines: EngineSet;
  limits: AgentsLimits;
  log: (line: string) => void;
  /** Background work in flight (website crawls), so shutdown and tests can wait for it. */
  background: Set<Promise<unknown>>;
}

/** Who is calling: a signed-in member of a workspace, or an anonymous visitor (public routes). */
export interface Caller {
  ip: string;
  userId: string;
  ws: string;
  role: string;
  admin: boolean;
  /** The operator acting as this user (an impersonation session), else null. */
  impersonator: string | null;
}
