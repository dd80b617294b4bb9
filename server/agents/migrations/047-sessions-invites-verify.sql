-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Sessions: a session token names its row; logout removes it and the token answers 401 from the next request on.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Invitations are accepted with the token of their mail (only its SHA-256 is kept), once, within 7 days.
-- Invitations made before this have no token: the owner withdraws and sends them again.
ALTER TABLE invitations ADD COLUMN token_hash TEXT;
ALTER TABLE invitations ADD COLUMN expires_at INTEGER;
CREATE UNIQUE INDEX invitations_token ON invitations(token_hash);

-- Email ownership: AGENTS_ADMIN_EMAILS grants operator rights only to a verified address.
ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
CREATE TABLE email_verifications (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX email_verifications_user ON email_verifications(user_id);

-- dialect: postgres
-- Sessions: a session token names its row; logout removes it and the token answers 401 from the next request on.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Invitations are accepted with the token of their mail (only its SHA-256 is kept), once, within 7 days.
-- Invitations made before this have no token: the owner withdraws and sends them again.
ALTER TABLE invitations ADD COLUMN token_hash TEXT;
ALTER TABLE invitations ADD COLUMN expires_at BIGINT;
CREATE UNIQUE INDEX invitations_token ON invitations(token_hash);

-- Email ownership: AGENTS_ADMIN_EMAILS grants operator rights only to a verified address.
ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
CREATE TABLE email_verifications (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX email_verifications_user ON email_verifications(user_id);
