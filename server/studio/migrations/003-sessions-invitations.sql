-- Sessions: a session token names its row and the user's token version; logout removes the row,
-- a password change bumps the version, so both end the token at the next request.
ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0;
-- dialect: sqlite
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
-- dialect: postgres
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
-- dialect: all
CREATE INDEX sessions_by_user ON sessions(user_id);

-- Members added by email are invited: the mailed link's token (only its SHA-256 is kept) joins, once, within 7 days,
-- only for the invited address.
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('editor', 'viewer', 'client')),
  token_hash TEXT NOT NULL UNIQUE,
  invited_by INTEGER,
-- dialect: sqlite
  expires_at INTEGER NOT NULL,
-- dialect: postgres
  expires_at BIGINT NOT NULL,
-- dialect: all
  created_at TEXT NOT NULL,
  UNIQUE (workspace_id, email)
);
