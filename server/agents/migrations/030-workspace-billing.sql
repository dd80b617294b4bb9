-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Workspace: invitations of addresses without an account, API keys (only a hash of the secret is kept).
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'member',
  invited_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (workspace_id, email)
);
CREATE INDEX invitations_email ON invitations(email);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  prefix TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE INDEX api_keys_ws ON api_keys(workspace_id, created_at);

-- Credit wallet: an append-only ledger. Every row carries the balance after it, so
-- workspaces.credits (the cached balance) always equals SUM(delta) of the workspace's rows.
-- No foreign key: the ledger outlives a deleted workspace (accounting record).
CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id TEXT NOT NULL,
  delta INTEGER NOT NULL,
  balance INTEGER NOT NULL,
  reason TEXT NOT NULL,
  ref TEXT UNIQUE,
  note TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX credit_ledger_ws ON credit_ledger(workspace_id, id);

-- Opening entries for workspaces that existed before the ledger.
INSERT INTO credit_ledger (workspace_id, delta, balance, reason, created_at)
  SELECT id, credits, credits, 'opening', created_at FROM workspaces WHERE credits <> 0;

CREATE TRIGGER credit_ledger_chain BEFORE INSERT ON credit_ledger
WHEN NEW.balance IS NOT COALESCE((SELECT balance FROM credit_ledger WHERE workspace_id = NEW.workspace_id ORDER BY id DESC LIMIT 1), 0) + NEW.delta
BEGIN
  SELECT RAISE(ABORT, 'ledger balance must equal the previous balance plus delta');
END;
CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger
BEGIN
  SELECT RAISE(ABORT, 'the credit ledger is append-only');
END;
CREATE TRIGGER credit_ledger_no_delete BEFORE DELETE ON credit_ledger
BEGIN
  SELECT RAISE(ABORT, 'the credit ledger is append-only');
END;
CREATE TRIGGER credit_ledger_apply AFTER INSERT ON credit_ledger
BEGIN
  UPDATE workspaces SET credits = NEW.balance WHERE id = NEW.workspace_id;
END;
-- A workspace created with credits (signup) opens its ledger with them.
CREATE TRIGGER workspaces_opening_credits AFTER INSERT ON workspaces WHEN NEW.credits <> 0
BEGIN
  INSERT INTO credit_ledger (workspace_id, delta, balance, reason, created_at) VALUES (NEW.id, NEW.credits, NEW.credits, 'signup', NEW.created_at);
END;
-- The cached balance changes only through the ledger.
CREATE TRIGGER workspaces_credits_guard BEFORE UPDATE OF credits ON workspaces
WHEN NEW.credits IS NOT COALESCE((SELECT balance FROM credit_ledger WHERE workspace_id = NEW.id ORDER BY id DESC LIMIT 1), 0)
BEGIN
  SELECT RAISE(ABORT, 'credits change only through the credit ledger');
END;

-- Payments with the two providers: one row per checkout session, order or subscription start.
CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  external_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  bundle TEXT,
  plan TEXT,
  credits INTEGER NOT NULL DEFAULT 0,
  amount_cents INTEGER NOT NULL,
  currency TEXT NOT NULL DEFAULT 'usd',
  status TEXT NOT NULL DEFAULT 'open',
  created_at INTEGER NOT NULL,
  paid_at INTEGER,
  UNIQUE (provider, external_id)
);
CREATE INDEX payments_ws ON payments(workspace_id, created_at);

-- Subscription or trial of a workspace (none until a payment method or a subscription).
CREATE TABLE subscriptions (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'none',
  plan TEXT,
  provider TEXT,
  external_id TEXT,
  customer_id TEXT,
  payment_method TEXT,
  trial_used INTEGER NOT NULL DEFAULT 0,
  trial_ends_at INTEGER,
  current_period_end INTEGER,
  cancelled_at INTEGER,
  auto_recharge TEXT NOT NULL DEFAULT '{"enabled":false,"threshold":0,"bundle":null}',
  updated_at INTEGER NOT NULL
);
CREATE INDEX subscriptions_external ON subscriptions(provider, external_id);

-- Provider webhook events already handled (replays are acknowledged and ignored).
CREATE TABLE provider_events (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (provider, event_id)
);

-- Second provider: catalog plan ids created on demand, one per plan.
CREATE TABLE paypal_plans (
  plan TEXT PRIMARY KEY,
  product_id TEXT NOT NULL,
  plan_id TEXT NOT NULL
);

-- Affiliate program (one affiliate per user). Money in USD cents.
CREATE TABLE affiliates (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  display_name TEXT NOT NULL DEFAULT '',
  socials TEXT NOT NULL DEFAULT '{}',
  promo_code TEXT UNIQUE,
  notify INTEGER NOT NULL DEFAULT 1,
  payout_method TEXT,
  kyc_status TEXT NOT NULL DEFAULT 'none',
  status TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE affiliate_links (
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  channel TEXT NOT NULL DEFAULT '',
  is_primary INTEGER NOT NULL DEFAULT 0,
  clicks INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX affiliate_links_aff ON affiliate_links(affiliate_id, created_at);

CREATE TABLE affiliate_clicks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  link_id TEXT NOT NULL REFERENCES affiliate_links(id) ON DELETE CASCADE,
  affiliate_id TEXT NOT NULL,
  ip_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX affiliate_clicks_aff ON affiliate_clicks(affiliate_id, created_at);

-- A workspace registered with an aff_ref cookie belongs to that affiliate.
CREATE TABLE affiliate_referrals (
  workspace_id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  link_id TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX affiliate_referrals_aff ON affiliate_referrals(affiliate_id);

-- 10 % of each fee a referred workspace paid; ref names the payment (idempotent).
CREATE TABLE affiliate_commissions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  ref TEXT NOT NULL UNIQUE,
  fee_cents INTEGER NOT NULL,
  commission_cents INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX affiliate_commissions_aff ON affiliate_commissions(affiliate_id);

-- KYC documents: status pending until an operator decides verified or rejected.
CREATE TABLE affiliate_kyc (
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  mime TEXT NOT NULL,
  data BLOB NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  note TEXT NOT NULL DEFAULT '',
  submitted_at INTEGER NOT NULL,
  reviewed_at INTEGER,
  reviewed_by TEXT
);
CREATE INDEX affiliate_kyc_aff ON affiliate_kyc(affiliate_id, submitted_at);

-- Payout requests: requested until an operator marks them paid or rejected.
CREATE TABLE affiliate_payouts (
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  amount_cents INTEGER NOT NULL,
  method TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'requested',
  note TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by TEXT
);
CREATE INDEX affiliate_payouts_aff ON affiliate_payouts(affiliate_id, created_at);

-- dialect: postgres
-- Workspace: invitations of addresses without an account, API keys (only a hash of the secret is kept).
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'member',
  invited_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (workspace_id, email)
);
CREATE INDEX invitations_email ON invitations(email);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  prefix TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT
);
CREATE INDEX api_keys_ws ON api_keys(workspace_id, created_at);

-- Credit wallet: an append-only ledger. Every row carries the balance after it, so
-- workspaces.credits (the cached balance) always equals SUM(delta) of the workspace's rows.
-- No foreign key: the ledger outlives a deleted workspace (accounting record).
CREATE TABLE credit_ledger (
  id BIGSERIAL PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  delta BIGINT NOT NULL,
  balance BIGINT NOT NULL,
  reason TEXT NOT NULL,
  ref TEXT UNIQUE,
  note TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
);
CREATE INDEX credit_ledger_ws ON credit_ledger(workspace_id, id);

-- Opening entries for workspaces that existed before the ledger.
INSERT INTO credit_ledger (workspace_id, delta, balance, reason, created_at)
  SELECT id, credits, credits, 'opening', created_at FROM workspaces WHERE credits <> 0;

CREATE FUNCTION credit_ledger_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.balance IS DISTINCT FROM COALESCE((SELECT balance FROM credit_ledger WHERE workspace_id = NEW.workspace_id ORDER BY id DESC LIMIT 1), 0) + NEW.delta THEN
    RAISE EXCEPTION 'ledger balance must equal the previous balance plus delta';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER credit_ledger_chain BEFORE INSERT ON credit_ledger FOR EACH ROW EXECUTE FUNCTION credit_ledger_chain();
CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the credit ledger is append-only';
END $$;
CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();
CREATE TRIGGER credit_ledger_no_delete BEFORE DELETE ON credit_ledger FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();
CREATE FUNCTION credit_ledger_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE workspaces SET credits = NEW.balance WHERE id = NEW.workspace_id;
  RETURN NULL;
END $$;
CREATE TRIGGER credit_ledger_apply AFTER INSERT ON credit_ledger FOR EACH ROW EXECUTE FUNCTION credit_ledger_apply();
-- A workspace created with credits (signup) opens its ledger with them.
CREATE FUNCTION workspaces_opening_credits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credit_ledger (workspace_id, delta, balance, reason, created_at) VALUES (NEW.id, NEW.credits, NEW.credits, 'signup', NEW.created_at);
  RETURN NULL;
END $$;
CREATE TRIGGER workspaces_opening_credits AFTER INSERT ON workspaces FOR EACH ROW WHEN (NEW.credits <> 0) EXECUTE FUNCTION workspaces_opening_credits();
-- The cached balance changes only through the ledger.
CREATE FUNCTION workspaces_credits_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.credits IS DISTINCT FROM COALESCE((SELECT balance FROM credit_ledger WHERE workspace_id = NEW.id ORDER BY id DESC LIMIT 1), 0) THEN
    RAISE EXCEPTION 'credits change only through the credit ledger';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER workspaces_credits_guard BEFORE UPDATE OF credits ON workspaces FOR EACH ROW EXECUTE FUNCTION workspaces_credits_guard();

-- Payments with the two providers: one row per checkout session, order or subscription start.
CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  external_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  bundle TEXT,
  plan TEXT,
  credits BIGINT NOT NULL DEFAULT 0,
  amount_cents BIGINT NOT NULL,
  currency TEXT NOT NULL DEFAULT 'usd',
  status TEXT NOT NULL DEFAULT 'open',
  created_at BIGINT NOT NULL,
  paid_at BIGINT,
  UNIQUE (provider, external_id)
);
CREATE INDEX payments_ws ON payments(workspace_id, created_at);

-- Subscription or trial of a workspace (none until a payment method or a subscription).
CREATE TABLE subscriptions (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'none',
  plan TEXT,
  provider TEXT,
  external_id TEXT,
  customer_id TEXT,
  payment_method TEXT,
  trial_used BIGINT NOT NULL DEFAULT 0,
  trial_ends_at BIGINT,
  current_period_end BIGINT,
  cancelled_at BIGINT,
  auto_recharge TEXT NOT NULL DEFAULT '{"enabled":false,"threshold":0,"bundle":null}',
  updated_at BIGINT NOT NULL
);
CREATE INDEX subscriptions_external ON subscriptions(provider, external_id);

-- Provider webhook events already handled (replays are acknowledged and ignored).
CREATE TABLE provider_events (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at BIGINT NOT NULL,
  PRIMARY KEY (provider, event_id)
);

-- Second provider: catalog plan ids created on demand, one per plan.
CREATE TABLE paypal_plans (
  plan TEXT PRIMARY KEY,
  product_id TEXT NOT NULL,
  plan_id TEXT NOT NULL
);

-- Affiliate program (one affiliate per user). Money in USD cents.
CREATE TABLE affiliates (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  display_name TEXT NOT NULL DEFAULT '',
  socials TEXT NOT NULL DEFAULT '{}',
  promo_code TEXT UNIQUE,
  notify BIGINT NOT NULL DEFAULT 1,
  payout_method TEXT,
  kyc_status TEXT NOT NULL DEFAULT 'none',
  status TEXT NOT NULL DEFAULT 'active',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE affiliate_links (
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  channel TEXT NOT NULL DEFAULT '',
  is_primary BIGINT NOT NULL DEFAULT 0,
  clicks BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX affiliate_links_aff ON affiliate_links(affiliate_id, created_at);

CREATE TABLE affiliate_clicks (
  id BIGSERIAL PRIMARY KEY,
  link_id TEXT NOT NULL REFERENCES affiliate_links(id) ON DELETE CASCADE,
  affiliate_id TEXT NOT NULL,
  ip_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX affiliate_clicks_aff ON affiliate_clicks(affiliate_id, created_at);

-- A workspace registered with an aff_ref cookie belongs to that affiliate.
CREATE TABLE affiliate_referrals (
  workspace_id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  link_id TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX affiliate_referrals_aff ON affiliate_referrals(affiliate_id);

-- 10 % of each fee a referred workspace paid; ref names the payment (idempotent).
CREATE TABLE affiliate_commissions (
  id BIGSERIAL PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  ref TEXT NOT NULL UNIQUE,
  fee_cents BIGINT NOT NULL,
  commission_cents BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX affiliate_commissions_aff ON affiliate_commissions(affiliate_id);

-- KYC documents: status pending until an operator decides verified or rejected.
CREATE TABLE affiliate_kyc (
  rowid BIGSERIAL NOT NULL, -- insertion order (SQLite's implicit rowid)
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  mime TEXT NOT NULL,
  data BYTEA NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  note TEXT NOT NULL DEFAULT '',
  submitted_at BIGINT NOT NULL,
  reviewed_at BIGINT,
  reviewed_by TEXT
);
CREATE INDEX affiliate_kyc_aff ON affiliate_kyc(affiliate_id, submitted_at);

-- Payout requests: requested until an operator marks them paid or rejected.
CREATE TABLE affiliate_payouts (
  id TEXT PRIMARY KEY,
  affiliate_id TEXT NOT NULL REFERENCES affiliates(id) ON DELETE CASCADE,
  amount_cents BIGINT NOT NULL,
  method TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'requested',
  note TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  decided_at BIGINT,
  decided_by TEXT
);
CREATE INDEX affiliate_payouts_aff ON affiliate_payouts(affiliate_id, created_at);
