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
