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
