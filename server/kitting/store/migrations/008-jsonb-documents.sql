-- One migration, both stores (server/core/db/migrate.ts): the SQLite section (bench and central), then the PostgreSQL one (central).
-- dialect: sqlite
-- Nothing on SQLite: documents are TEXT there, read and written as JSON text.

-- dialect: postgres
-- Documents and logged fields become jsonb (binary, parsed once on write, indexable; the lookup indexes on
-- data->>'field' are rebuilt by the type change). jsonb keeps neither key order nor duplicate keys: nothing
-- reads a document's text form (replicas are compared field by field, stamps are per field), and a
-- document's fields come back in jsonb's order. jsonb refuses the character U+0000 in strings (PostgreSQL
-- text holds no NUL): the store writes it as U+FFFD, and this migration converts stored ones the same way.

CREATE FUNCTION kitting_json_without_nul(j json) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN strpos(j::text, '\u0000') = 0 THEN j::jsonb
    -- An escaped backslash before "u0000" is not a NUL: only \u0000 after an even run of backslashes is.
    ELSE regexp_replace(j::text, '(?<!\\)((\\\\)*)\\u0000', '\1\\ufffd', 'g')::jsonb
  END
$$;

ALTER TABLE records ALTER COLUMN data TYPE jsonb USING kitting_json_without_nul(data);
ALTER TABLE changes ALTER COLUMN fields TYPE jsonb USING kitting_json_without_nul(fields);

DROP FUNCTION kitting_json_without_nul(json);
