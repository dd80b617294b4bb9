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
-- Text without spaces between words (Japanese) is searched by character trigrams, as the FTS5 trigram index does
-- on SQLite. pg_trgm cannot serve it everywhere: under the C locale (initdb's default without LANG) it extracts
-- no trigram from kana and kanji at all, so its indexes never narrow a Japanese search. `grams` holds the
-- trigrams of every kana/kanji run of question and text (the ranges of server/agents/knowledge/text.ts), indexed
-- by a GIN array index whatever the locale. The pg_trgm indexes stay (substring search on other scripts).
CREATE FUNCTION passages_cjk_trigrams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(m[1], i, 3)), '{}')
  FROM regexp_matches(t, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]{3,}', 'g') AS m,
       generate_series(1, char_length(m[1]) - 2) AS i
$$;
ALTER TABLE passages
  ADD COLUMN tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('simple', question), 'A') || setweight(to_tsvector('simple', text), 'D')) STORED,
  ADD COLUMN grams text[] GENERATED ALWAYS AS (passages_cjk_trigrams(question || ' ' || text)) STORED;
CREATE INDEX passages_tsv ON passages USING gin (tsv);
CREATE INDEX passages_grams ON passages USING gin (grams);
