-- One migration, both stores (server/core/db/migrate.ts): the SQLite section (bench and central), then the PostgreSQL one (central).
-- dialect: sqlite
-- Sync (docs/DESIGN.md §4). Additive only.

-- Who wrote a change row: '' for a local write (pushable from a bench), else the bench id
-- a central accepted it from (never echoed back to that bench on pull).
ALTER TABLE changes ADD COLUMN origin TEXT NOT NULL DEFAULT '';

-- Capped collections (keep newest N per workspace), trimmed locally, never synced as trims.
CREATE TABLE local_caps (
  coll TEXT PRIMARY KEY,
  keep INTEGER NOT NULL
);

-- Bench: number blocks leased from central; `next` is the next number to issue from the block.
CREATE TABLE lease_blocks (
  ws   TEXT NOT NULL,
  name TEXT NOT NULL,
  lo   INTEGER NOT NULL,
  hi   INTEGER NOT NULL,
  next INTEGER NOT NULL,
  PRIMARY KEY (ws, name, lo)
);

-- Bench: every series the bench has used or been told of; start = first number of a never-used
-- series (null when unknown: central then leases only a series it already has).
CREATE TABLE lease_series (
  ws     TEXT NOT NULL,
  name   TEXT NOT NULL,
  start  INTEGER,
  PRIMARY KEY (ws, name)
);

-- Central: one-time enrolment codes (stored hashed).
CREATE TABLE sync_enrol_codes (
  code_hash TEXT PRIMARY KEY,
  ws        TEXT NOT NULL,
  created   INTEGER NOT NULL,
  expires   INTEGER NOT NULL,
  used_by   TEXT
);

-- Central: enrolled benches, their revocable token (hashed) and the highest change seq accepted.
CREATE TABLE sync_benches (
  ws         TEXT NOT NULL,
  bench      TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  name       TEXT NOT NULL DEFAULT '',
  created    INTEGER NOT NULL,
  revoked    INTEGER NOT NULL DEFAULT 0,
  last_seen  INTEGER NOT NULL DEFAULT 0,
  acked      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (ws, bench)
);

-- Central: answers of accepted push batches, so a repeated batch gets the same answer.
CREATE TABLE sync_batches (
  ws      TEXT NOT NULL,
  bench   TEXT NOT NULL,
  batch   TEXT NOT NULL,
  answer  TEXT NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (ws, bench, batch)
);

-- dialect: postgres
-- Sync (central side): capped collections, enrolment codes, benches and push answers. Additive only.

CREATE TABLE local_caps (
  coll text PRIMARY KEY,
  keep integer NOT NULL
);

CREATE TABLE sync_enrol_codes (
  code_hash text PRIMARY KEY,
  ws        text NOT NULL,
  created   bigint NOT NULL,
  expires   bigint NOT NULL,
  used_by   text
);

CREATE TABLE sync_benches (
  ws         text NOT NULL,
  bench      text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  name       text NOT NULL DEFAULT '',
  created    bigint NOT NULL,
  revoked    boolean NOT NULL DEFAULT false,
  last_seen  bigint NOT NULL DEFAULT 0,
  acked      bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (ws, bench)
);

CREATE TABLE sync_batches (
  ws      text NOT NULL,
  bench   text NOT NULL,
  batch   text NOT NULL,
  answer  jsonb NOT NULL,
  created bigint NOT NULL,
  PRIMARY KEY (ws, bench, batch)
);
CREATE INDEX sync_batches_age ON sync_batches (ws, bench, created);
