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
