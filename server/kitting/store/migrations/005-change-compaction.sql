-- One migration, both stores (server/core/db/migrate.ts): the SQLite section (bench and central), then the PostgreSQL one (central).
-- PostgreSQL recorded this migration as 004 before the two folders became one (moved at start, never re-run):
-- formerly: 004-change-compaction.sql
-- dialect: sqlite
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

-- dialect: postgres
-- Central: change-log compaction (server/store/compaction.ts), as SQLite migration 005. Additive only.

-- The cursor a bench last pulled from: it holds every change up to it, so the log below the oldest
-- cursor of the active benches (and the retention window) may be compacted.
ALTER TABLE sync_benches ADD COLUMN pulled bigint NOT NULL DEFAULT 0;

-- Per workspace, the seq up to which the log keeps only the latest change of each record field;
-- a bench pulling from below it loads a snapshot instead.
CREATE TABLE change_compaction (
  ws      text PRIMARY KEY,
  through bigint NOT NULL,
  at      bigint NOT NULL
);
