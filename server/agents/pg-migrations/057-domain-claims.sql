-- Domain claims (issue 25): a domain name may be claimed by several workspaces until one proves ownership with a
-- TXT record _agent-verify.<domain> holding its claim's token; at most one verified claim per name.
ALTER TABLE domains DROP CONSTRAINT IF EXISTS domains_domain_key;
ALTER TABLE domains ADD COLUMN verify_token TEXT NOT NULL DEFAULT '';
UPDATE domains SET verify_token = md5(random()::text || id);
ALTER TABLE domains ADD CONSTRAINT domains_ws_domain UNIQUE (workspace_id, domain);
CREATE UNIQUE INDEX domains_verified ON domains(domain) WHERE verified_at IS NOT NULL;
