-- One migration, both stores (server/core/db/migrate.ts): the SQLite section (bench and central), then the PostgreSQL one (central).
-- dialect: sqlite
-- Live records per workspace and collection, kept by the writes themselves (same transaction), so a
-- count is one key lookup however large the collection grows. `total` includes tombstones.
CREATE TABLE record_counts (
  ws    TEXT NOT NULL,
  coll  TEXT NOT NULL,
  live  INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (ws, coll)
) WITHOUT ROWID;

INSERT INTO record_counts (ws, coll, live, total)
  SELECT ws, coll, SUM(deleted = 0), COUNT(*) FROM records GROUP BY ws, coll;

CREATE TRIGGER records_count_insert AFTER INSERT ON records
BEGIN
  INSERT INTO record_counts (ws, coll, live, total) VALUES (NEW.ws, NEW.coll, NEW.deleted = 0, 1)
    ON CONFLICT (ws, coll) DO UPDATE SET live = live + (NEW.deleted = 0), total = total + 1;
END;

CREATE TRIGGER records_count_delete AFTER DELETE ON records
BEGIN
  UPDATE record_counts SET live = live - (OLD.deleted = 0), total = total - 1 WHERE ws = OLD.ws AND coll = OLD.coll;
END;

CREATE TRIGGER records_count_update AFTER UPDATE OF ws, coll, deleted ON records
  WHEN OLD.deleted IS NOT NEW.deleted OR OLD.ws IS NOT NEW.ws OR OLD.coll IS NOT NEW.coll
BEGIN
  UPDATE record_counts SET live = live - (OLD.deleted = 0), total = total - 1 WHERE ws = OLD.ws AND coll = OLD.coll;
  INSERT INTO record_counts (ws, coll, live, total) VALUES (NEW.ws, NEW.coll, NEW.deleted = 0, 1)
    ON CONFLICT (ws, coll) DO UPDATE SET live = live + (NEW.deleted = 0), total = total + 1;
END;

-- dialect: postgres
-- Live records per workspace and collection, kept by the writes themselves (same transaction, row
-- triggers as in the SQLite migration 003), so a count is one key lookup however large the collection grows.
-- `total` includes tombstones. Writes of one workspace hold its advisory lock, so its rows never contend.
CREATE TABLE record_counts (
  ws    text COLLATE "C" NOT NULL,
  coll  text COLLATE "C" NOT NULL,
  live  bigint NOT NULL DEFAULT 0,
  total bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (ws, coll)
);

INSERT INTO record_counts (ws, coll, live, total)
  SELECT ws, coll, COUNT(*) FILTER (WHERE NOT deleted), COUNT(*) FROM records GROUP BY ws, coll;

CREATE FUNCTION record_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    UPDATE record_counts SET live = live - (CASE WHEN OLD.deleted THEN 0 ELSE 1 END), total = total - 1
      WHERE ws = OLD.ws AND coll = OLD.coll;
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO record_counts (ws, coll, live, total) VALUES (NEW.ws, NEW.coll, CASE WHEN NEW.deleted THEN 0 ELSE 1 END, 1)
      ON CONFLICT (ws, coll) DO UPDATE SET live = record_counts.live + excluded.live, total = record_counts.total + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER records_count_insert_delete AFTER INSERT OR DELETE ON records
  FOR EACH ROW EXECUTE FUNCTION record_counts_keep();

CREATE TRIGGER records_count_update AFTER UPDATE OF ws, coll, deleted ON records
  FOR EACH ROW WHEN (OLD.deleted IS DISTINCT FROM NEW.deleted OR OLD.ws IS DISTINCT FROM NEW.ws OR OLD.coll IS DISTINCT FROM NEW.coll)
  EXECUTE FUNCTION record_counts_keep();
