CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  suspended INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE workspaces (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  plan TEXT NOT NULL DEFAULT 'free',
  owner_id INTEGER,
  -- allowance month counter: usage rows are kept per month, the monthly reset starts the next one
  month INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);

CREATE TABLE members (
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer', 'client')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX members_by_user ON members(user_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  prefix TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  hash TEXT NOT NULL,
  created_by INTEGER,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_by_workspace ON api_keys(workspace_id);

CREATE TABLE usage (
  workspace_id INTEGER NOT NULL,
  month INTEGER NOT NULL,
  posts INTEGER NOT NULL DEFAULT 0,
  ai_units INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, month)
);

-- Append-only: the balance is the sum of the entries.
CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  reason TEXT NOT NULL,
  job_id TEXT,
  note TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX credit_ledger_by_workspace ON credit_ledger(workspace_id);
CREATE UNIQUE INDEX credit_ledger_one_refund ON credit_ledger(job_id) WHERE reason = 'refund';
CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger BEGIN SELECT RAISE(ABORT, 'credit ledger is append-only'); END;
CREATE TRIGGER credit_ledger_no_delete BEFORE DELETE ON credit_ledger BEGIN SELECT RAISE(ABORT, 'credit ledger is append-only'); END;

CREATE TABLE passes (
  id TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL,
  scope TEXT NOT NULL,
  surface TEXT,
  expires_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX passes_by_workspace ON passes(workspace_id);

CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL,
  request_id TEXT,
  model TEXT NOT NULL,
  surface TEXT NOT NULL,
  prompt TEXT NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  settings TEXT NOT NULL,
  media TEXT NOT NULL,
  results TEXT NOT NULL DEFAULT '[]',
  status_url TEXT,
  cancel_url TEXT,
  charged INTEGER NOT NULL DEFAULT 0,
  pass_id TEXT,
  actor TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX jobs_by_workspace ON jobs(workspace_id, created_at);
CREATE INDEX jobs_unfinished ON jobs(status) WHERE status NOT IN ('completed', 'failed', 'nsfw');

CREATE TABLE media (
  id TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  type TEXT NOT NULL,
  job_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX media_by_workspace ON media(workspace_id, created_at);
CREATE UNIQUE INDEX media_one_per_job_result ON media(job_id, key);

CREATE TABLE posts (
  id TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  scheduled_at TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX posts_by_workspace ON posts(workspace_id, created_at);
