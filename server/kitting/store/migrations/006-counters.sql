-- One migration, both stores (server/core/db/migrate.ts): the SQLite section (bench and central), then the PostgreSQL one (central).
-- dialect: sqlite
-- Attempt counters shared by every process over this database (sign-in and enrolment lockouts, publish
-- limits), so a restart forgets none and several central processes count together. One row per key:
-- `n` attempts since `since`, the latest at `last`, refused until `until` (milliseconds).
CREATE TABLE counters (
  key   TEXT PRIMARY KEY,
  n     INTEGER NOT NULL,
  since INTEGER NOT NULL,
  last  INTEGER NOT NULL,
  until INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX counters_by_last ON counters (last);

-- dialect: postgres
-- Attempt counters shared by every central process over this database (as the SQLite migration 006):
-- sign-in and enrolment lockouts, publish limits. Each update locks its row (SELECT ... FOR UPDATE).
CREATE TABLE counters (
  key   text COLLATE "C" PRIMARY KEY,
  n     bigint NOT NULL,
  since bigint NOT NULL,
  last  bigint NOT NULL,
  until bigint NOT NULL
);
CREATE INDEX counters_by_last ON counters (last);
