CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE workspaces (
  id      TEXT PRIMARY KEY,
  created INTEGER NOT NULL,
  kind    TEXT NOT NULL,
  seeded  INTEGER NOT NULL DEFAULT 0
);

-- One row per record: the document, one HLC stamp per field, and a tombstone flag.
CREATE TABLE records (
  ws      TEXT NOT NULL,
  coll    TEXT NOT NULL,
  id      TEXT NOT NULL,
  data    TEXT NOT NULL,
  stamps  TEXT NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  hlc     TEXT NOT NULL,
  PRIMARY KEY (ws, coll, id)
);
CREATE INDEX records_by_coll ON records (ws, coll);

-- Every write appends its changed fields here in the same transaction.
CREATE TABLE changes (
  seq    INTEGER PRIMARY KEY AUTOINCREMENT,
  ws     TEXT NOT NULL,
  coll   TEXT NOT NULL,
  id     TEXT NOT NULL,
  hlc    TEXT NOT NULL,
  fields TEXT NOT NULL
);
CREATE INDEX changes_by_ws ON changes (ws, seq);

CREATE TABLE series (
  ws   TEXT NOT NULL,
  name TEXT NOT NULL,
  next INTEGER NOT NULL,
  PRIMARY KEY (ws, name)
);
