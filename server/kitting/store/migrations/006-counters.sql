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
