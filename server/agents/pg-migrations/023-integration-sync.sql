-- Outcome of the last lead pushed to a connected CRM.
ALTER TABLE integrations ADD COLUMN last_sync_at BIGINT;
ALTER TABLE integrations ADD COLUMN last_sync_error TEXT;
