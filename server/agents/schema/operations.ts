import type { Generated } from 'kysely';

/** Support, platform administration, webhooks, channels, integrations and workspace settings. Times are epoch milliseconds; flags are 0/1 integers; JSON documents are TEXT. */

export interface SupportTicketsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  subject: string;
  category: Generated<string>;
  priority: Generated<string>;
  status: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface SupportMessagesTable {
  id: string;
  ticket_id: string;
  author_id: string | null;
  author_role: string;
  body: string;
  created_at: number;
  /** Insertion order (SQLite's implicit rowid; a BIGSERIAL column on PostgreSQL). */
  rowid: Generated<number>;
}

export interface AdminAuditTable {
  id: Generated<number>;
  admin_id: string;
  admin_email: string;
  action: string;
  target_type: string;
  target_id: string;
  detail: Generated<string>;
  created_at: number;
}

export interface ContentPagesTable {
  page: string;
  data: string;
  updated_at: number;
  updated_by: string;
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
  updated_at: number;
  updated_by: string;
}

export interface WebhooksTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  url: string;
  events: string;
  created_at: number;
}

export interface WebhookSecretsTable {
  workspace_id: string;
  secret: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  delivery_id: string;
  workspace_id: string;
  webhook_id: string;
  agent_id: string | null;
  event: string;
  url: string;
  payload: string | null;
  state: Generated<string>;
  status: number | null;
  ok: Generated<number>;
  attempts: Generated<number>;
  error: string | null;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AgentSettingsTable {
  agent_id: string;
  section: string;
  data: string;
  updated_at: number;
}

export interface CampaignTemplatesTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  name: string;
  type: Generated<string>;
  body: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface CampaignsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  name: string;
  channel: Generated<string>;
  replies_mode: Generated<string>;
  template_id: string | null;
  audience: Generated<string>;
  status: Generated<string>;
  recipients: Generated<number>;
  sent_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ChannelConnectionsTable {
  agent_id: string;
  channel: string;
  workspace_id: string;
  enabled: Generated<number>;
  status: Generated<string>;
  credentials: string;
  account: Generated<string>;
  config: Generated<string>;
  error: string | null;
  connected_at: number;
  checked_at: number;
}

export interface ChannelThreadsTable {
  conversation_id: string;
  agent_id: string;
  channel: string;
  external_ref: string;
  created_at: number;
}

export interface AgentActionsTable {
  agent_id: string;
  type: string;
  enabled: Generated<number>;
  config: Generated<string>;
  updated_at: number;
}

export interface IntegrationsTable {
  workspace_id: string;
  provider: string;
  status: Generated<string>;
  credentials: string;
  account: Generated<string>;
  error: string | null;
  connected_at: number;
  checked_at: number;
  last_sync_at: number | null;
  last_sync_error: string | null;
}

export interface CallbackSeenTable {
  key: string;
  seen_at: number;
}

export interface DomainsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  domain: string;
  status: Generated<string>;
  error: string | null;
  cname: string | null;
  checked_at: number | null;
  verified_at: number | null;
  created_at: number;
  updated_at: number;
  verify_token: string;
}
