-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Domain claims (issue 25): a domain name may be claimed by several workspaces until one proves ownership with a
-- TXT record _agent-verify.<domain> holding its claim's token; at most one verified claim per name.
CREATE TABLE domains_claims (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  domain TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'checking',
  error TEXT,
  cname TEXT,
  checked_at INTEGER,
  verified_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  verify_token TEXT NOT NULL,
  UNIQUE (workspace_id, domain)
);
INSERT INTO domains_claims (id, workspace_id, agent_id, domain, status, error, cname, checked_at, verified_at, created_at, updated_at, verify_token)
  SELECT id, workspace_id, agent_id, domain, status, error, cname, checked_at, verified_at, created_at, updated_at, lower(hex(randomblob(16))) FROM domains;
DROP TABLE domains;
ALTER TABLE domains_claims RENAME TO domains;
CREATE INDEX domains_ws ON domains(workspace_id, created_at);
CREATE UNIQUE INDEX domains_verified ON domains(domain) WHERE verified_at IS NOT NULL;

-- dialect: postgres
-- Domain claims (issue 25): a domain name may be claimed by several workspaces until one proves ownership with a
-- TXT record _agent-verify.<domain> holding its claim's token; at most one verified claim per name.
ALTER TABLE domains DROP CONSTRAINT IF EXISTS domains_domain_key;
ALTER TABLE domains ADD COLUMN verify_token TEXT NOT NULL DEFAULT '';
UPDATE domains SET verify_token = md5(random()::text || id);
ALTER TABLE domains ADD CONSTRAINT domains_ws_domain UNIQUE (workspace_id, domain);
CREATE UNIQUE INDEX domains_verified ON domains(domain) WHERE verified_at IS NOT NULL;
