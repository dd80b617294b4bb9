-- One migration, both stores (server/core/db/migrate.ts): the SQLite section (bench and central), then the PostgreSQL one (central).
-- dialect: sqlite
-- Nothing on SQLite: its record_counts triggers (migration 003) stay per row.

-- dialect: postgres
-- Inserts and deletes keep record_counts once per statement instead of once per row: a push batch inserts
-- hundreds of records in one statement, and one grouped upsert replaces as many single-row ones. The
-- update trigger stays per row (it fires only when a row's tombstone, workspace or collection changes).
DROP TRIGGER records_count_insert_delete ON records;

CREATE FUNCTION record_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_counts (ws, coll, live, total)
    SELECT ws, coll, COUNT(*) FILTER (WHERE NOT deleted), COUNT(*) FROM inserted GROUP BY ws, coll
    ON CONFLICT (ws, coll) DO UPDATE SET live = record_counts.live + excluded.live, total = record_counts.total + excluded.total;
  RETURN NULL;
END
$$;

CREATE FUNCTION record_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE record_counts c SET live = c.live - d.live, total = c.total - d.total
    FROM (SELECT ws, coll, COUNT(*) FILTER (WHERE NOT deleted) AS live, COUNT(*) AS total FROM deleted GROUP BY ws, coll) d
    WHERE c.ws = d.ws AND c.coll = d.coll;
  RETURN NULL;
END
$$;

CREATE TRIGGER records_count_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION record_counts_inserted();

CREATE TRIGGER records_count_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION record_counts_deleted();
