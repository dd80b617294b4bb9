import type { Generated } from 'kysely';

/** Credits, payments, subscriptions and affiliates. Times are epoch milliseconds; flags are 0/1 integers; JSON documents are TEXT. */

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
