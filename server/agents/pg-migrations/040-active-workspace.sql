-- The workspace a user's sessions act in (chosen among its memberships); NULL or a workspace it left means its first one.
ALTER TABLE users ADD COLUMN active_workspace_id TEXT;
