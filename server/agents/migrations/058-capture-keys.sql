-- Lead capture (issue 29): a visitor leaving the same contact details twice at once gets one contact and one lead.
-- capture_key ('email:<address>' or 'phone:<number>') is set on contacts and leads a capture creates; the unique
-- index makes a second capture of the same key an upsert instead of a duplicate. Rows typed in by hand keep NULL.
ALTER TABLE contacts ADD COLUMN capture_key TEXT;
ALTER TABLE leads ADD COLUMN capture_key TEXT;
CREATE UNIQUE INDEX contacts_capture_key ON contacts(workspace_id, capture_key);
CREATE UNIQUE INDEX leads_capture_key ON leads(workspace_id, capture_key);
