-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Operators: accounts named in AGENTS_ADMIN_EMAILS, plus accounts an operator promoted (platform_role 'admin').
ALTER TABLE users ADD COLUMN platform_role TEXT NOT NULL DEFAULT 'user';

-- Support tickets with their threads (the opener or an operator reads and replies).
CREATE TABLE support_tickets (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subject TEXT NOT NULL,
  category TEXT NOT NULL DEFAULT 'general',
  priority TEXT NOT NULL DEFAULT 'normal',
  status TEXT NOT NULL DEFAULT 'open',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX support_tickets_user ON support_tickets(user_id, updated_at);
CREATE INDEX support_tickets_status ON support_tickets(status, updated_at);

CREATE TABLE support_messages (
  id TEXT PRIMARY KEY,
  ticket_id TEXT NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
  author_id TEXT,
  author_role TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX support_messages_ticket ON support_messages(ticket_id, created_at);

-- What operators did (impersonation, password resets, credits, deletions, decisions). Kept when the target goes.
CREATE TABLE admin_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  admin_id TEXT NOT NULL,
  admin_email TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL
);
CREATE INDEX admin_audit_time ON admin_audit(created_at);

-- Landing-page content edited by operators (the built-in text is used while a page has no row).
CREATE TABLE content_pages (
  page TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  updated_by TEXT NOT NULL
);

-- Platform settings and credit bundles edited by operators: one JSON value per key.
CREATE TABLE platform_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  updated_by TEXT NOT NULL
);

-- dialect: postgres
-- Operators: accounts named in AGENTS_ADMIN_EMAILS, plus accounts an operator promoted (platform_role 'admin').
ALTER TABLE users ADD COLUMN platform_role TEXT NOT NULL DEFAULT 'user';

-- Support tickets with their threads (the opener or an operator reads and replies).
CREATE TABLE support_tickets (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subject TEXT NOT NULL,
  category TEXT NOT NULL DEFAULT 'general',
  priority TEXT NOT NULL DEFAULT 'normal',
  status TEXT NOT NULL DEFAULT 'open',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX support_tickets_user ON support_tickets(user_id, updated_at);
CREATE INDEX support_tickets_status ON support_tickets(status, updated_at);

CREATE TABLE support_messages (
  rowid BIGSERIAL NOT NULL, -- insertion order (SQLite's implicit rowid)
  id TEXT PRIMARY KEY,
  ticket_id TEXT NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
  author_id TEXT,
  author_role TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX support_messages_ticket ON support_messages(ticket_id, created_at);

-- What operators did (impersonation, password resets, credits, deletions, decisions). Kept when the target goes.
CREATE TABLE admin_audit (
  id BIGSERIAL PRIMARY KEY,
  admin_id TEXT NOT NULL,
  admin_email TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL
);
CREATE INDEX admin_audit_time ON admin_audit(created_at);

-- Landing-page content edited by operators (the built-in text is used while a page has no row).
CREATE TABLE content_pages (
  page TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  updated_by TEXT NOT NULL
);

-- Platform settings and credit bundles edited by operators: one JSON value per key.
CREATE TABLE platform_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  updated_by TEXT NOT NULL
);
