import type { Generated } from 'kysely';

/** Accounts, workspaces and their sessions and keys. Times are epoch milliseconds; flags are 0/1 integers; JSON documents are TEXT. */

export interface UsersTable {
  id: string;
  email: string;
  name: Generated<string>;
  password_hash: string;
  token_version: Generated<number>;
  totp_secret: string | null;
  totp_pending: string | null;
  totp_enabled: Generated<number>;
  theme: Generated<string>;
  suspended: Generated<number>;
  created_at: number;
  platform_role: Generated<string>;
  active_workspace_id: string | null;
  email_verified: Generated<number>;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  owner_id: string;
  tier: Generated<string>;
  credits: Generated<number>;
  paused: Generated<number>;
  created_at: number;
}

export interface MembersTable {
  workspace_id: string;
  user_id: string;
  role: Generated<string>;
  created_at: number;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: number;
  used: Generated<number>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface EmailVerificationsTable {
  token_hash: string;
  user_id: string;
  email: string;
  expires_at: number;
  used: Generated<number>;
}

export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  role: Generated<string>;
  invited_by: string;
  created_at: number;
  token_hash: string | null;
  expires_at: number | null;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: Generated<string>;
  prefix: string;
  secret_hash: string;
  created_by: string;
  created_at: number;
  last_used_at: number | null;
}
