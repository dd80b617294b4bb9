-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Nothing to change: SQLite never had the pg_trgm indexes (its retrieval runs on the FTS5 trigram index, 001).
-- The statement below is a no-op (the index exists since 001); it keeps every migration runnable on both stores.
CREATE INDEX IF NOT EXISTS passages_agent ON passages(agent_id);

-- dialect: postgres
-- The pg_trgm indexes of 001 are no longer read: since 059 retrieval finds words on the full-text index
-- (passages_tsv), Japanese trigrams on the array index (passages_grams), and two-character Japanese terms by LIKE
-- within one agent's passages (passages_agent). EXPLAIN of every retrieval statement and pg_stat_user_indexes
-- show no scan of either index, under the C locale and under C.utf8, even with sequential scans disabled.
-- Each still cost a GIN update on every passage written. The pg_trgm extension
-- stays installed (other schemas of the same database may use it; dropping it is the operator's choice).
DROP INDEX IF EXISTS passages_question_trgm;
DROP INDEX IF EXISTS passages_text_trgm;
