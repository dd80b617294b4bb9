/** Prepared statements and row shapes of the SQLite replication primitives (see sqlite-replica.ts). */
import type Database from 'better-sqlite3';
import { sharedStatements } from './sqlite-statements';
import type { BenchRow, Doc, WireChange } from './types';

export interface FullRow {
  data: string;
  stamps: string;
  deleted: number;
  hlc: string;
}

export interface ChangeRow {
  seq: number;
  coll: string;
  id: string;
  hlc: string;
  fields: string;
}

export interface BenchDbRow {
  ws: string;
  bench: string;
  name: string;
  created: number;
  revoked: number;
  last_seen: number;
  acked: number;
}

export const toChange = (r: ChangeRow): WireChange => ({ seq: r.seq, coll: r.coll, id: r.id, hlc: r.hlc, fields: JSON.parse(r.fields) as Doc });
export const toBench = (r: BenchDbRow): BenchRow => ({
  ws: r.ws,
  bench: r.bench,
  name: r.name,
  created: r.created,
  revoked: r.revoked === 1,
  lastSeen: r.last_seen,
  acked: r.acked,
});

export function prepareReplicaStatements(db: Database.Database) {
  return {
  ...sharedStatements(db),
  delMeta: db.prepare('DELETE FROM meta WHERE key = ?'),
  row: db.prepare<[string, string, string], FullRow>('SELECT data, stamps, deleted, hlc FROM records WHERE ws = ? AND coll = ? AND id = ?'),
  lastSeq: db.prepare<[string], { s: number | null }>('SELECT MAX(seq) AS s FROM changes WHERE ws = ?'),
  local: db.prepare<[string, number, number], ChangeRow>(
    "SELECT seq, coll, id, hlc, fields FROM changes WHERE ws = ? AND seq > ? AND origin = '' ORDER BY seq LIMIT ?",
  ),
  pending: db.prepare<[string, number], { n: number }>("SELECT COUNT(*) AS n FROM changes WHERE ws = ? AND seq > ? AND origin = ''"),
  since: db.prepare<[string, number, string, number], ChangeRow>(
    'SELECT seq, coll, id, hlc, fields FROM changes WHERE ws = ? AND seq > ? AND origin != ? ORDER BY seq LIMIT ?',
  ),
  snap: db.prepare<[string, string, string, string, number], { coll: string; id: string; data: string; stamps: string; deleted: number }>(
    'SELECT coll, id, data, stamps, deleted FROM records WHERE ws = ? AND (coll > ? OR (coll = ? AND id > ?)) ORDER BY coll, id LIMIT ?',
  ),
  wsRows: db.prepare<[string], { coll: string; id: string; stamps: string; data: string; deleted: number; hlc: string }>(
    'SELECT coll, id, data, stamps, deleted, hlc FROM records WHERE ws = ? ORDER BY rowid',
  ),
  dropWs: db.prepare('DELETE FROM records WHERE ws = ?'),
  dropRow: db.prepare('DELETE FROM records WHERE ws = ? AND coll = ? AND id = ?'),
  trim: db.prepare(
    `DELETE FROM records WHERE rowid IN (
       SELECT rowid FROM records WHERE ws = ? AND coll = ? ORDER BY hlc DESC, id DESC LIMIT -1 OFFSET ?)`,
  ),
  caps: db.prepare<[], { coll: string; keep: number }>('SELECT coll, keep FROM local_caps'),
  setCap: db.prepare('INSERT INTO local_caps (coll, keep) VALUES (?, ?) ON CONFLICT(coll) DO UPDATE SET keep = excluded.keep'),
  seriesRows: db.prepare<[string], { name: string; next: number }>('SELECT name, next FROM series WHERE ws = ?'),
  seriesGet: db.prepare<[string, string], { next: number }>('SELECT next FROM series WHERE ws = ? AND name = ?'),
  seriesSet: db.prepare(
    'INSERT INTO series (ws, name, next) VALUES (?, ?, ?) ON CONFLICT(ws, name) DO UPDATE SET next = MAX(next, excluded.next)',
  ),
  // Regular blocks first; the reserve (overflow) only once they are spent.
  block: db.prepare<[string, string], { lo: number; hi: number; next: number; overflow: number }>(
    'SELECT lo, hi, next, overflow FROM lease_blocks WHERE ws = ? AND name = ? AND next <= hi ORDER BY overflow, lo LIMIT 1',
  ),
  blockUse: db.prepare('UPDATE lease_blocks SET next = ? WHERE ws = ? AND name = ? AND lo = ?'),
  blockAdd: db.prepare('INSERT OR IGNORE INTO lease_blocks (ws, name, lo, hi, next, overflow) VALUES (?, ?, ?, ?, ?, ?)'),
  blocksOf: db.prepare<[string], { name: string; lo: number; hi: number; next: number; overflow: number }>(
    'SELECT name, lo, hi, next, overflow FROM lease_blocks WHERE ws = ? AND next <= hi',
  ),
  dropSpent: db.prepare('DELETE FROM lease_blocks WHERE ws = ? AND next > hi'),
  lsAdd: db.prepare('INSERT INTO lease_series (ws, name, start) VALUES (?, ?, ?) ON CONFLICT(ws, name) DO UPDATE SET start = COALESCE(start, excluded.start)'),
  lsAll: db.prepare<[string], { name: string; start: number | null }>('SELECT name, start FROM lease_series WHERE ws = ?'),
  codeAdd: db.prepare('INSERT INTO sync_enrol_codes (code_hash, ws, created, expires) VALUES (?, ?, ?, ?)'),
  codeGet: db.prepare<[string], { ws: string; expires: number; used_by: string | null }>(
    'SELECT ws, expires, used_by FROM sync_enrol_codes WHERE code_hash = ?',
  ),
  codeUse: db.prepare('UPDATE sync_enrol_codes SET used_by = ? WHERE code_hash = ?'),
  benchSave: db.prepare(
    `INSERT INTO sync_benches (ws, bench, token_hash, name, created, revoked, last_seen) VALUES (?, ?, ?, ?, ?, 0, ?)
     ON CONFLICT(ws, bench) DO UPDATE SET token_hash = excluded.token_hash, name = excluded.name, revoked = 0, last_seen = excluded.last_seen`,
  ),
  benchByToken: db.prepare<[string], BenchDbRow>('SELECT * FROM sync_benches WHERE token_hash = ?'),
  benchGet: db.prepare<[string, string], BenchDbRow>('SELECT * FROM sync_benches WHERE ws = ? AND bench = ?'),
  benchTouch: db.prepare('UPDATE sync_benches SET last_seen = ? WHERE ws = ? AND bench = ?'),
  benchPulled: db.prepare('UPDATE sync_benches SET last_seen = ?, pulled = ? WHERE ws = ? AND bench = ?'),
  // Change-log compaction (server/store/compaction.ts)
  logWorkspaces: db.prepare<[], { id: string }>('SELECT id FROM workspaces ORDER BY id'),
  firstRecent: db.prepare<[string, string], { seq: number }>('SELECT seq FROM changes WHERE ws = ? AND hlc >= ? ORDER BY seq LIMIT 1'),
  oldestCursor: db.prepare<[string, number], { c: number | null }>('SELECT MIN(pulled) AS c FROM sync_benches WHERE ws = ? AND revoked = 0 AND last_seen >= ?'),
  compacted: db.prepare<[string], { through: number }>('SELECT through FROM change_compaction WHERE ws = ?'),
  setCompacted: db.prepare(
    'INSERT INTO change_compaction (ws, through, at) VALUES (?, ?, ?) ON CONFLICT(ws) DO UPDATE SET through = MAX(through, excluded.through), at = excluded.at',
  ),
  logPage: db.prepare<[string, number, number, number], { seq: number; coll: string; id: string; fields: string }>(
    'SELECT seq, coll, id, fields FROM changes WHERE ws = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?',
  ),
  logRewrite: db.prepare('UPDATE changes SET fields = ? WHERE ws = ? AND seq = ?'),
  logDrop: db.prepare('DELETE FROM changes WHERE ws = ? AND seq = ?'),
  logSize: db.prepare<[string], { n: number; b: number }>('SELECT COUNT(*) AS n, COALESCE(SUM(length(CAST(fields AS BLOB))), 0) AS b FROM changes WHERE ws = ?'),
  benchAck: db.prepare('UPDATE sync_benches SET acked = ?, last_seen = ? WHERE ws = ? AND bench = ?'),
  benches: db.prepare<[string], BenchDbRow>('SELECT * FROM sync_benches WHERE ws = ? ORDER BY created'),
  benchRevoke: db.prepare('UPDATE sync_benches SET revoked = 1 WHERE ws = ? AND bench = ? AND revoked = 0'),
  batchGet: db.prepare<[string, string, string], { answer: string }>('SELECT answer FROM sync_batches WHERE ws = ? AND bench = ? AND batch = ?'),
  batchAdd: db.prepare('INSERT INTO sync_batches (ws, bench, batch, answer, created) VALUES (?, ?, ?, ?, ?)'),
  batchPrune: db.prepare('DELETE FROM sync_batches WHERE ws = ? AND bench = ? AND created < ?'),
  };
}

export type ReplicaStatements = ReturnType<typeof prepareReplicaStatements>;
