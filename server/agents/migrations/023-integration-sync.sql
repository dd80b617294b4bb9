-- Outcome of the last lead pushed to a connected CRM.
-- dialect: sqlite
ALTER TABLE integrations ADD COLUMN last_sync_at INTEGER;
-- dialect: postgres
ALTER TABLE integrations ADD COLUMN last_sync_at BIGINT;
-- dialect: all
ALTER TABLE integrations ADD COLUMN last_sync_error TEXT;
