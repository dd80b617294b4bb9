-- One migration, both stores (server/core/db/migrate.ts): the SQLite section, then the PostgreSQL one.
-- dialect: sqlite
-- Nothing to change: SQLite's retrieval already runs on its FTS5 trigram index and its vocabulary (001).
-- The statement below is a no-op (the index exists since 001); it keeps every migration runnable on both stores.
CREATE INDEX IF NOT EXISTS passages_agent ON passages(agent_id);

-- dialect: postgres
-- Retrieval for word-separated scripts on a full-text index (issue 29). With a small vocabulary every trigram is
-- in most passages, so the pg_trgm indexes let the planner read all of an agent's passages for each question.
-- Words are looked up in a GIN index over a stored tsvector instead ('simple' configuration: lower-cased words,
-- no stemming, no stop words; question weighted A, text D), queried with the question's rarer words only.
-- The pg_trgm indexes stay for text without spaces between words (Japanese).
ALTER TABLE passages ADD COLUMN tsv tsvector
  GENERATED ALWAYS AS (setweight(to_tsvector('simple', question), 'A') || setweight(to_tsvector('simple', text), 'D')) STORED;
CREATE INDEX passages_tsv ON passages USING gin (tsv);
