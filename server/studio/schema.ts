import type { Generated, Insertable, Selectable } from 'kysely';
import type { PlanName } from '../../shared/api/contracts/studio';

/** The studio's tables as its migrations create them (server/studio/migrations). Times are ISO text unless named *_ms. */
export type Role = 'owner' | 'editor' | 'viewer' | 'client';
export type Surface = 'image' | 'video' | 'audio';

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  suspended: Generated<number>;
  created_at: string;
  token_version: Generated<number>;
}

export interface WorkspacesTable {
  id: Generated<number>;
  name: string;
  plan: Generated<PlanName>;
  owner_id: number | null;
  month: Generated<number>;
  created_at: string;
}

export interface MembersTable {
  workspace_id: number;
  user_id: number;
  role: Role;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: number;
  prefix: string;
  name: string;
  hash: string;
  created_by: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface UsageTable {
  workspace_id: number;
  month: number;
  posts: Generated<number>;
  ai_units: Generated<number>;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  workspace_id: number;
  amount: number;
  reason: 'grant' | 'charge' | 'refund' | 'analyze';
  job_id: string | null;
  note: string | null;
  created_at: string;
}

export interface CreditBalancesTable {
  workspace_id: number;
  balance: number;
}

export interface PassesTable {
  id: string;
  workspace_id: number;
  scope: string;
  surface: Surface | null;
  expires_at: string | null;
  created_at: string;
}

export interface JobsTable {
  id: string;
  workspace_id: number;
  request_id: string | null;
  model: string;
  surface: Surface;
  prompt: string;
  status: string;
  error: string | null;
  /** JSON */
  settings: string;
  /** JSON */
  media: string;
  /** JSON array of {type, url} */
  results: Generated<string>;
  status_url: string | null;
  cancel_url: string | null;
  charged: Generated<number>;
  pass_id: string | null;
  actor: string;
  created_at: string;
  updated_at: string;
}

export interface MediaTable {
  id: string;
  workspace_id: number;
  key: string;
  type: string;
  job_id: string | null;
  created_at: string;
}

export interface PostsTable {
  id: string;
  workspace_id: number;
  title: string;
  body: string;
  scheduled_at: string | null;
  created_by: string;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  /** epoch ms */
  created_at: number;
  /** epoch ms */
  expires_at: number;
}

export interface InvitationsTable {
  id: string;
  workspace_id: number;
  email: string;
  role: Exclude<Role, 'owner'>;
  token_hash: string;
  invited_by: number | null;
  /** epoch ms */
  expires_at: number;
  created_at: string;
}

export interface StudioDB {
  users: UsersTable;
  workspaces: WorkspacesTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  usage: UsageTable;
  credit_ledger: CreditLedgerTable;
  credit_balances: CreditBalancesTable;
  passes: PassesTable;
  jobs: JobsTable;
  media: MediaTable;
  posts: PostsTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
}

export type JobRow = Selectable<JobsTable>;
export type NewJob = Insertable<JobsTable>;
export type MediaRow = Omit<Selectable<MediaTable>, 'workspace_id'>;
export type Pass = Omit<Selectable<PassesTable>, 'workspace_id'>;
