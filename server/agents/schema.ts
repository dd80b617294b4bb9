import type { Kysely } from 'kysely';
import type { UsersTable, WorkspacesTable, MembersTable, PasswordResetsTable, SessionsTable, EmailVerificationsTable, InvitationsTable, ApiKeysTable } from './schema/accounts';
import type { AgentsTable, SourcesTable, PassagesTable, PassagesFtsTable, PassagesVocabTable, ConversationsTable, MessagesTable, ContactsTable, LeadsTable, AttributesTable, BuilderWidgetsTable, EventsTable } from './schema/content';
import type { SupportTicketsTable, SupportMessagesTable, AdminAuditTable, ContentPagesTable, PlatformSettingsTable, WebhooksTable, WebhookSecretsTable, WebhookDeliveriesTable, AgentSettingsTable, CampaignTemplatesTable, CampaignsTable, ChannelConnectionsTable, ChannelThreadsTable, AgentActionsTable, IntegrationsTable, CallbackSeenTable, DomainsTable } from './schema/operations';
import type { CreditLedgerTable, PaymentsTable, SubscriptionsTable, ProviderEventsTable, PaypalPlansTable, AffiliatesTable, AffiliateLinksTable, AffiliateClicksTable, AffiliateReferralsTable, AffiliateCommissionsTable, AffiliateKycTable, AffiliatePayoutsTable } from './schema/billing';

/**
 * The agent platform's tables as its migrations create them (server/agents/migrations), one interface per
 * table in schema/. Columns with a database default are Generated (optional on insert).
 */
export type * from './schema/accounts';
export type * from './schema/content';
export type * from './schema/operations';
export type * from './schema/billing';

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
