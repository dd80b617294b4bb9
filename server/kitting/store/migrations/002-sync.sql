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
