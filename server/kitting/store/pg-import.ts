/**
 * Move a central SQLite database into PostgreSQL: every table central uses, in pages, keeping record order,
 * stamps, the change log's server_seq numbers (so enrolled benches keep their pull cursors), series, benches,
 * enrolment codes and push answers. The signing secret beside the file moves too (cookies stay valid).
 * Refuses a target that already holds records. Ends with a row count per table, source against target.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadMigrations } from './migrate';
import { PgStore } from './pg-store';
import { jsonbText } from './pg-txn';
import { SECRET_META_KEY } from './open';

const PAGE = 2000;

interface TableCopy {
  table: string;
  /** SQLite query returning the rows after a rowid-like cursor, in order. */
  select: string;
  /** Key column of the cursor (a column selected as `k`). */
  columns: string[];
  /** PostgreSQL array types of the columns, in order. */
  types: string[];
  /** Extra conflict clause (tables that may already hold a row, like meta). */
  conflict?: string;
}

const TABLES: TableCopy[] = [
  { table: 'meta', select: "SELECT rowid AS k, key, value FROM meta WHERE key <> 'node_id' AND rowid > ? ORDER BY rowid LIMIT ?", columns: ['key', 'value'], types: ['text', 'text'], conflict: 'ON CONFLICT (key) DO NOTHING' },
  { table: 'workspaces', select: 'SELECT rowid AS k, id, created, kind, seeded FROM workspaces WHERE rowid > ? ORDER BY rowid LIMIT ?', columns: ['id', 'created', 'kind', 'seeded'], types: ['text', 'int8', 'text', 'bool'] },
  {
    table: 'records',
    select: 'SELECT rowid AS k, ws, coll, id, data, stamps, deleted, hlc FROM records WHERE rowid > ? ORDER BY rowid LIMIT ?',
    columns: ['ws', 'coll', 'id', 'data', 'stamps', 'deleted', 'hlc'],
    types: ['text', 'text', 'text', 'jsonb', 'jsonb', 'bool', 'text'],
  },
  {
    table: 'changes',
    select: 'SELECT seq AS k, ws, seq, coll, id, hlc, fields, origin FROM changes WHERE seq > ? ORDER BY seq LIMIT ?',
    columns: ['ws', 'seq', 'coll', 'id', 'hlc', 'fields', 'origin'],
    types: ['text', 'int8', 'text', 'text', 'text', 'jsonb', 'text'],
  },
  { table: 'series', select: 'SELECT rowid AS k, ws, name, next FROM series WHERE rowid > ? ORDER BY rowid LIMIT ?', columns: ['ws', 'name', 'next'], types: ['text', 'text', 'int8'] },
  { table: 'local_caps', select: 'SELECT rowid AS k, coll, keep FROM local_caps WHERE rowid > ? ORDER BY rowid LIMIT ?', columns: ['coll', 'keep'], types: ['text', 'int4'], conflict: 'ON CONFLICT (coll) DO NOTHING' },
  {
    table: 'sync_enrol_codes',
    select: 'SELECT rowid AS k, code_hash, ws, created, expires, used_by FROM sync_enrol_codes WHERE rowid > ? ORDER BY rowid LIMIT ?',
    columns: ['code_hash', 'ws', 'created', 'expires', 'used_by'],
    types: ['text', 'text', 'int8', 'int8', 'text'],
  },
  {
    table: 'sync_benches',
    select: 'SELECT rowid AS k, ws, bench, token_hash, name, created, revoked, last_seen, acked FROM sync_benches WHERE rowid > ? ORDER BY rowid LIMIT ?',
    columns: ['ws', 'bench', 'token_hash', 'name', 'created', 'revoked', 'last_seen', 'acked'],
    types: ['text', 'text', 'text', 'text', 'int8', 'bool', 'int8', 'int8'],
  },
  // How far each workspace's log is compacted (benches' pull cursors are recorded again at their next pull).
  {
    table: 'change_compaction',
    select: 'SELECT rowid AS k, ws, through, at FROM change_compaction WHERE rowid > ? ORDER BY rowid LIMIT ?',
    columns: ['ws', 'through', 'at'],
    types: ['text', 'int8', 'int8'],
  },
  {
    table: 'sync_batches',
    select: 'SELECT rowid AS k, ws, bench, batch, answer, created FROM sync_batches WHERE rowid > ? ORDER BY rowid LIMIT ?',
    columns: ['ws', 'bench', 'batch', 'answer', 'created'],
    types: ['text', 'text', 'text', 'jsonb', 'int8'],
  },
];

const BOOL_COLUMNS = new Set(['seeded', 'deleted', 'revoked']);

export interface ImportReport {
  tables: { table: string; source: number; target: number }[];
  ok: boolean;
}

function bar(done: number, total: number, label: string): string {
  const width = 30;
  const frac = total === 0 ? 1 : done / total;
  const full = Math.round(frac * width);
  return `\r[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${String(Math.floor(frac * 100)).padStart(3)}% ${label} ${done}/${total}`;
}

export async function importSqlite(from: string, to: string, out: (s: string) => void = (s) => process.stderr.write(s)): Promise<ImportReport> {
  if (!existsSync(from)) throw new Error(`no SQLite database at ${from}`);
  const src = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const version = (src.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
    const known = Math.max(0, ...loadMigrations().map((m) => m.version));
    if (version > known) throw new Error(`${from} has schema version ${version}, newer than this release's ${known}: import with that release`);
    const has = (t: string) => !!src.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t);
    const tables = TABLES.filter((t) => has(t.table));
    const count = (t: string) => (src.prepare(`SELECT COUNT(*) AS n FROM ${t}${t === 'meta' ? " WHERE key <> 'node_id'" : ''}`).get() as { n: number }).n;
    const totals = new Map(tables.map((t) => [t.table, count(t.table)]));
    const total = [...totals.values()].reduce((a, b) => a + b, 0);

    const store = await PgStore.open({ url: to, poolSize: 2 });
    try {
      const existing = await store.pool.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM records');
      if ((existing.rows[0]?.n ?? 0) > 0) throw new Error('the target database already holds records: import into an empty database (or schema)');
      const client = await store.pool.connect();
      let done = 0;
      try {
        await client.query('BEGIN');
        for (const t of tables) {
          const stmt = src.prepare(t.select);
          let after = -1;
          for (;;) {
            const rows = stmt.all(after, PAGE) as Record<string, unknown>[];
            if (rows.length === 0) break;
            const params = t.columns.map((c, i) =>
              rows.map((r) => (BOOL_COLUMNS.has(c) ? r[c] === 1 : t.types[i] === 'jsonb' && typeof r[c] === 'string' ? jsonbText(r[c]) : (r[c] ?? null))),
            );
            const args = t.types.map((ty, i) => `$${i + 1}::${ty}[]`).join(', ');
            await client.query(`INSERT INTO ${t.table} (${t.columns.join(', ')}) SELECT * FROM unnest(${args}) ${t.conflict ?? ''}`, params);
            after = rows[rows.length - 1]?.k as number;
            done += rows.length;
            out(bar(done, total, t.table));
          }
        }
        // server_seq continues after the highest number each workspace's benches have seen.
        await client.query('INSERT INTO change_seq (ws, seq) SELECT ws, MAX(seq) FROM changes GROUP BY ws ON CONFLICT (ws) DO UPDATE SET seq = GREATEST(change_seq.seq, excluded.seq)');
        const secretFile = join(dirname(from), 'secret.key');
        if (existsSync(secretFile)) {
          const hex = readFileSync(secretFile, 'utf8').trim();
          if (/^[0-9a-f]{64}$/.test(hex)) await client.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [SECRET_META_KEY, hex]);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
      out('\n');
      // The planner's statistics of the imported tables, before the first central process plans a query on them.
      await store.pool.query('ANALYZE');
      const report: ImportReport = { tables: [], ok: true };
      for (const t of tables) {
        const where = t.table === 'meta' ? ` WHERE key NOT IN ('node_id', '${SECRET_META_KEY}')` : '';
        const target = (await store.pool.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${t.table}${where}`)).rows[0]?.n ?? 0;
        const source = t.table === 'meta' ? (src.prepare(`SELECT COUNT(*) AS n FROM meta WHERE key NOT IN ('node_id', '${SECRET_META_KEY}')`).get() as { n: number }).n : (totals.get(t.table) ?? 0);
        report.tables.push({ table: t.table, source, target });
        if (source !== target) report.ok = false;
      }
      return report;
    } finally {
      await store.end();
    }
  } finally {
    src.close();
  }
}
