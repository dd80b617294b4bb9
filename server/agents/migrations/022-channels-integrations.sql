-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Channels (per agent), actions (per agent), integrations (per workspace). Credentials are AES-256-GCM ciphertext.
CREATE TABLE channel_connections (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL DEFAULT 'connected',
  credentials TEXT NOT NULL,
  account TEXT NOT NULL DEFAULT '{}',
  config TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  connected_at INTEGER NOT NULL,
  checked_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, channel)
);
CREATE INDEX channel_connections_ws ON channel_connections(workspace_id);

-- Which outside conversation (team-chat thread, messaging number) a conversation belongs to.
CREATE TABLE channel_threads (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  external_ref TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX channel_threads_ref ON channel_threads(agent_id, channel, external_ref);

CREATE TABLE agent_actions (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 0,
  config TEXT NOT NULL DEFAULT '{}',
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, type)
);

CREATE TABLE integrations (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'connected',
  credentials TEXT NOT NULL,
  account TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  connected_at INTEGER NOT NULL,
  checked_at INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, provider)
);

-- Signatures and provider message ids already seen by the inbound callbacks (replay guard).
CREATE TABLE callback_seen (
  key TEXT PRIMARY KEY,
  seen_at INTEGER NOT NULL
);
CREATE INDEX callback_seen_time ON callback_seen(seen_at);

-- dialect: postgres
-- Channels (per agent), actions (per agent), integrations (per workspace). Credentials are AES-256-GCM ciphertext.
CREATE TABLE channel_connections (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  enabled BIGINT NOT NULL DEFAULT 1,
  status TEXT NOT NULL DEFAULT 'connected',
  credentials TEXT NOT NULL,
  account TEXT NOT NULL DEFAULT '{}',
  config TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  connected_at BIGINT NOT NULL,
  checked_at BIGINT NOT NULL,
  PRIMARY KEY (agent_id, channel)
);
CREATE INDEX channel_connections_ws ON channel_connections(workspace_id);

-- Which outside conversation (team-chat thread, messaging number) a conversation belongs to.
CREATE TABLE channel_threads (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  external_ref TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX channel_threads_ref ON channel_threads(agent_id, channel, external_ref);

CREATE TABLE agent_actions (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  enabled BIGINT NOT NULL DEFAULT 0,
  config TEXT NOT NULL DEFAULT '{}',
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (agent_id, type)
);

CREATE TABLE integrations (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'connected',
  credentials TEXT NOT NULL,
  account TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  connected_at BIGINT NOT NULL,
  checked_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, provider)
);

-- Signatures and provider message ids already seen by the inbound callbacks (replay guard).
CREATE TABLE callback_seen (
  key TEXT PRIMARY KEY,
  seen_at BIGINT NOT NULL
);
CREATE INDEX callback_seen_time ON callback_seen(seen_at);
