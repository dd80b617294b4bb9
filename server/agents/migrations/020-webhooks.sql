-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Outbound webhooks: endpoints, the workspace signing secret, and the durable delivery queue.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhooks_ws ON webhooks(workspace_id, created_at);

CREATE TABLE webhook_secrets (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- One row per (event, endpoint). payload is kept only while the delivery may still be attempted.
CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  delivery_id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  webhook_id TEXT NOT NULL,
  agent_id TEXT,
  event TEXT NOT NULL,
  url TEXT NOT NULL,
  payload TEXT,
  state TEXT NOT NULL DEFAULT 'pending',
  status INTEGER,
  ok INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  next_attempt_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_ws ON webhook_deliveries(workspace_id, seq);

-- dialect: postgres
-- Outbound webhooks: endpoints, the workspace signing secret, and the durable delivery queue.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX webhooks_ws ON webhooks(workspace_id, created_at);

CREATE TABLE webhook_secrets (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- One row per (event, endpoint). payload is kept only while the delivery may still be attempted.
CREATE TABLE webhook_deliveries (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  delivery_id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  webhook_id TEXT NOT NULL,
  agent_id TEXT,
  event TEXT NOT NULL,
  url TEXT NOT NULL,
  payload TEXT,
  state TEXT NOT NULL DEFAULT 'pending',
  status BIGINT,
  ok BIGINT NOT NULL DEFAULT 0,
  attempts BIGINT NOT NULL DEFAULT 0,
  error TEXT,
  next_attempt_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_ws ON webhook_deliveries(workspace_id, seq);
