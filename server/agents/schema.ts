import type { Generated, Kysely } from 'kysely';

/**
 * The agent platform's tables as its migrations create them (server/agents/migrations), one interface per table.
 * Times are epoch milliseconds (INTEGER / BIGINT); flags are 0/1 integers; JSON documents are TEXT.
 * Columns with a database default are Generated (optional on insert).
 */
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

export interface AgentsTable {
  id: string;
  workspace_id: string;
  name: string;
  model: Generated<string>;
  temperature: Generated<number>;
  system_prompt: Generated<string>;
  welcome_message: Generated<string>;
  visibility: Generated<string>;
  status: Generated<string>;
  emoji: Generated<string>;
  color: Generated<string>;
  avatar_url: Generated<string>;
  company_name: Generated<string>;
  website: Generated<string>;
  public_id: string;
  agent_email: string;
  widget: Generated<string>;
  last_trained_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SourcesTable {
  id: string;
  workspace_id: string;
  agent_id: string;
  type: string;
  name: string;
  content: Generated<string>;
  url: Generated<string>;
  question: Generated<string>;
  answer: Generated<string>;
  mime: Generated<string>;
  size_kb: Generated<number>;
  status: Generated<string>;
  error: string | null;
  pages: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface PassagesTable {
  id: Generated<number>;
  workspace_id: string;
  agent_id: string;
  source_id: string;
  kind: string;
  question: Generated<string>;
  text: string;
}

export interface PassagesFtsTable {
  question: string | null;
  text: string | null;
}

export interface PassagesVocabTable {
  term: string | null;
  doc: string | null;
  cnt: string | null;
}

export interface ConversationsTable {
  id: string;
  workspace_id: string;
  agent_id: string;
  channel: Generated<string>;
  handoff: Generated<string>;
  feedback: string | null;
  visitor: Generated<string>;
  country: Generated<string>;
  contact_id: string | null;
  first_message: Generated<string>;
  message_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface MessagesTable {
  seq: Generated<number>;
  id: string;
  conversation_id: string;
  workspace_id: string;
  role: string;
  text: string;
  engine: string | null;
  feedback: string | null;
  corrected_source_id: string | null;
  created_at: number;
}

export interface ContactsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  external_id: Generated<string>;
  email: Generated<string>;
  name: Generated<string>;
  phone: Generated<string>;
  created_at: number;
  updated_at: number;
  capture_key: Generated<string | null>;
}

export interface LeadsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  conversation_id: string | null;
  name: Generated<string>;
  email: Generated<string>;
  phone: Generated<string>;
  company: Generated<string>;
  status: Generated<string>;
  score: Generated<number>;
  source: Generated<string>;
  notes: Generated<string>;
  created_at: number;
  updated_at: number;
  capture_key: Generated<string | null>;
}

export interface AttributesTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  name: string;
  type: Generated<string>;
  label: Generated<string>;
  description: Generated<string>;
  created_at: number;
}

export interface BuilderWidgetsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  name: Generated<string>;
  code: Generated<string>;
  schema: Generated<string>;
  functions: Generated<string>;
  states: Generated<string>;
  mode: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  workspace_id: string;
  agent_id: string | null;
  event: string;
  payload: string;
  delivered: Generated<number>;
  created_at: number;
}

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

export interface CreditLedgerTable {
  id: Generated<number>;
  workspace_id: string;
  delta: number;
  balance: number;
  reason: string;
  ref: string | null;
  note: Generated<string>;
  created_at: number;
}

export interface PaymentsTable {
  id: string;
  workspace_id: string;
  provider: string;
  external_id: string;
  kind: string;
  bundle: string | null;
  plan: string | null;
  credits: Generated<number>;
  amount_cents: number;
  currency: Generated<string>;
  status: Generated<string>;
  created_at: number;
  paid_at: number | null;
}

export interface SubscriptionsTable {
  workspace_id: string;
  status: Generated<string>;
  plan: string | null;
  provider: string | null;
  external_id: string | null;
  customer_id: string | null;
  payment_method: string | null;
  trial_used: Generated<number>;
  trial_ends_at: number | null;
  current_period_end: number | null;
  cancelled_at: number | null;
  auto_recharge: Generated<string>;
  updated_at: number;
}

export interface ProviderEventsTable {
  provider: string;
  event_id: string;
  type: string;
  received_at: number;
}

export interface PaypalPlansTable {
  plan: string;
  product_id: string;
  plan_id: string;
}

export interface AffiliatesTable {
  id: string;
  user_id: string;
  workspace_id: string;
  display_name: Generated<string>;
  socials: Generated<string>;
  promo_code: string | null;
  notify: Generated<number>;
  payout_method: string | null;
  kyc_status: Generated<string>;
  status: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface AffiliateLinksTable {
  id: string;
  affiliate_id: string;
  code: string;
  name: Generated<string>;
  channel: Generated<string>;
  is_primary: Generated<number>;
  clicks: Generated<number>;
  created_at: number;
}

export interface AffiliateClicksTable {
  id: Generated<number>;
  link_id: string;
  affiliate_id: string;
  ip_hash: string;
  created_at: number;
}

export interface AffiliateReferralsTable {
  workspace_id: string;
  affiliate_id: string;
  link_id: string | null;
  created_at: number;
}

export interface AffiliateCommissionsTable {
  id: Generated<number>;
  affiliate_id: string;
  workspace_id: string;
  ref: string;
  fee_cents: number;
  commission_cents: number;
  created_at: number;
}

export interface AffiliateKycTable {
  id: string;
  affiliate_id: string;
  mime: string;
  data: Buffer;
  status: Generated<string>;
  note: Generated<string>;
  submitted_at: number;
  reviewed_at: number | null;
  reviewed_by: string | null;
  /** Insertion order (SQLite's implicit rowid; a BIGSERIAL column on PostgreSQL). */
  rowid: Generated<number>;
}

export interface AffiliatePayoutsTable {
  id: string;
  affiliate_id: string;
  amount_cents: number;
  method: string;
  status: Generated<string>;
  note: Generated<string>;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
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

export interface AgentsDB {
  users: UsersTable;
  workspaces: WorkspacesTable;
  members: MembersTable;
  password_resets: PasswordResetsTable;
  agents: AgentsTable;
  sources: SourcesTable;
  passages: PassagesTable;
  passages_fts: PassagesFtsTable;
  passages_vocab: PassagesVocabTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  contacts: ContactsTable;
  leads: LeadsTable;
  attributes: AttributesTable;
  builder_widgets: BuilderWidgetsTable;
  events: EventsTable;
  support_tickets: SupportTicketsTable;
  support_messages: SupportMessagesTable;
  admin_audit: AdminAuditTable;
  content_pages: ContentPagesTable;
  platform_settings: PlatformSettingsTable;
  webhooks: WebhooksTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  agent_settings: AgentSettingsTable;
  campaign_templates: CampaignTemplatesTable;
  campaigns: CampaignsTable;
  channel_connections: ChannelConnectionsTable;
  channel_threads: ChannelThreadsTable;
  agent_actions: AgentActionsTable;
  integrations: IntegrationsTable;
  callback_seen: CallbackSeenTable;
  invitations: InvitationsTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  payments: PaymentsTable;
  subscriptions: SubscriptionsTable;
  provider_events: ProviderEventsTable;
  paypal_plans: PaypalPlansTable;
  affiliates: AffiliatesTable;
  affiliate_links: AffiliateLinksTable;
  affiliate_clicks: AffiliateClicksTable;
  affiliate_referrals: AffiliateReferralsTable;
  affiliate_commissions: AffiliateCommissionsTable;
  affiliate_kyc: AffiliateKycTable;
  affiliate_payouts: AffiliatePayoutsTable;
  sessions: SessionsTable;
  email_verifications: EmailVerificationsTable;
  domains: DomainsTable;
}

/** A connection (SQLite) or pool (PostgreSQL) of the platform's tables; a transaction is one too. */
export type AgentsDb = Kysely<AgentsDB>;
