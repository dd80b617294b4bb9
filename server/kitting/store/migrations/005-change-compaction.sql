-- Central: change-log compaction (server/store/compaction.ts). Additive only.

-- The cursor a bench last pulled from: it holds every change up to it, so the log below the oldest
-- cursor of the active benches (and the retention window) may be compacted.
ALTER TABLE sync_benches ADD COLUMN pulled INTEGER NOT NULL DEFAULT 0;

-- Per workspace, the seq up to which the log keeps only the latest change of each record field;
-- a bench pulling from below it loads a snapshot instead.
CREATE TABLE change_compaction (
  ws      TEXT PRIMARY KEY,
  through INTEGER NOT NULL,
  at      INTEGER NOT NULL
);
