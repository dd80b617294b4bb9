import type { ClientBase } from 'pg';

/**
 * Logical export of one PostgreSQL schema (the connection's `current_schema()`) as JSON lines, and
 * the loader that puts such an export into an empty schema. Domain-free: the caller names the
 * service and hands the loader that service's migrations.
 *
 * The format (one JSON value per line, UTF-8; the caller gzips it):
 *   line 1   header {"format":"pgexport","formatVersion":1,"service",…,"schemaVersion",…,"tables":[{"name","columns"}…]}
 *            (tables in foreign-key order: a table comes after every table it references)
 *   then per table, in header order:
 *            ["table","<name>"]
 *            {"<column>":<value>,…}        one row per line (PostgreSQL's row_to_json text)
 *            ["end","<name>",<rows>]
 *   last     ["done",{"tables":<n>,"rows":<total>}]
 * Rows are never parsed in JavaScript on either side (bigints keep every digit; bytea is hex text).
 */

const EXPORT_FORMAT = 'pgexport';
const EXPORT_FORMAT_VERSION = 1;
/** The migration runner's bookkeeping table: described by the header's schemaVersion, not exported. */
const MIGRATIONS_TABLE = 'schema_migrations';
/** Rows fetched from the cursor per round trip by default (bounded memory whatever the table size). */
const FETCH_ROWS = 256;

export interface ExportTable {
  name: string;
  columns: string[];
}

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  formatVersion: typeof EXPORT_FORMAT_VERSION;
  service: string;
  schemaVersion: number;
  createdAt: string;
  /** The schema exported (informative; the loader writes into its connection's current schema). */
  schema: string;
  tables: ExportTable[];
}

export interface ExportOptions {
  service: string;
  /** Rows per cursor round trip (default 256). */
  fetchRows?: number;
  /** Called once the snapshot is fixed, before any row is read (tests use it to write concurrently). */
  onSnapshot?: () => Promise<void> | void;
}

/** A numbered migration of the service (plain SQL, applied in version order). */
export interface ExportMigration {
  version: number;
  name: string;
  sql: string;
}

export interface LoadOptions {
  service: string;
  /** Every migration this build knows; the export's schema version must be the newest of them. */
  migrations: readonly ExportMigration[];
  /** Rows per INSERT (default 500) and the text size that closes a batch early (default 4 MiB). */
  batchRows?: number;
  batchBytes?: number;
}

export interface LoadResult {
  schemaVersion: number;
  tables: number;
  rows: number;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Tables of the current schema (partitions folded into their parent), with columns, in foreign-key order. */
async function schemaTables(client: ClientBase): Promise<{ schema: string; tables: ExportTable[] }> {
  const schema = (await client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]?.s;
  if (!schema) throw new Error('the connection has no current schema (search_path names no existing schema)');
  const rels = await client.query<{ oid: number; name: string }>(
    `SELECT c.oid::int AS oid, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> $2 ORDER BY c.relname`,
    [schema, MIGRATIONS_TABLE],
  );
  const oids = rels.rows.map((r) => r.oid);
  const cols = await client.query<{ oid: number; name: string }>(
    `SELECT attrelid::int AS oid, attname AS name FROM pg_attribute
      WHERE attrelid = ANY($1::oid[]) AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attrelid, attnum`,
    [oids],
  );
  const fks = await client.query<{ child: number; parent: number }>(
    `SELECT conrelid::int AS child, confrelid::int AS parent FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY($1::oid[])`,
    [oids],
  );
  const columns = new Map<number, string[]>();
  for (const c of cols.rows) columns.set(c.oid, [...(columns.get(c.oid) ?? []), c.name]);
  const parents = new Map<number, Set<number>>(oids.map((o) => [o, new Set<number>()]));
  for (const f of fks.rows) if (f.child !== f.parent && parents.has(f.parent)) parents.get(f.child)?.add(f.parent);
  // Kahn's order, ties by name (rels are sorted), so one schema always gives one order.
  const ordered: ExportTable[] = [];
  const placed = new Set<number>();
  while (placed.size < rels.rows.length) {
    const next = rels.rows.find((r) => !placed.has(r.oid) && [...(parents.get(r.oid) ?? [])].every((p) => placed.has(p)));
    if (!next) {
      const left = rels.rows.filter((r) => !placed.has(r.oid)).map((r) => r.name);
      throw new Error(`foreign keys between tables form a cycle (${left.join(', ')}); such a schema cannot be exported table by table`);
    }
    placed.add(next.oid);
    ordered.push({ name: next.name, columns: columns.get(next.oid) ?? [] });
  }
  return { schema, tables: ordered };
}

async function schemaVersion(client: ClientBase, schema: string): Promise<number> {
  const has = await client.query('SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2', [schema, MIGRATIONS_TABLE]);
  if (!has.rowCount) return 0;
  const row = await client.query<{ v: string | null }>(`SELECT MAX(version)::text AS v FROM ${quoteIdent(schema)}.${MIGRATIONS_TABLE}`);
  return Number(row.rows[0]?.v ?? 0);
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/**
 * The export of the connection's current schema, as chunks of text, read inside one
 * REPEATABLE READ, READ ONLY transaction (every table from the same snapshot; writers go on). The
 * client must be idle and used by nobody else until the generator ends; stopping the generator
 * early rolls the transaction back.
 */
export async function* exportSchema(client: ClientBase, opts: ExportOptions): AsyncGenerator<string> {
  const fetch = Math.max(1, Math.min(10_000, Math.floor(opts.fetchRows ?? FETCH_ROWS)));
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  let open = true;
  try {
    await client.query("SET LOCAL bytea_output = 'hex'");
    await client.query('SET LOCAL extra_float_digits = 1');
    const { schema, tables } = await schemaTables(client);
    const version = await schemaVersion(client, schema); // the first read: the snapshot is fixed here
    await opts.onSnapshot?.();
    const header: ExportHeader = { format: EXPORT_FORMAT, formatVersion: EXPORT_FORMAT_VERSION, service: opts.service, schemaVersion: version, createdAt: new Date().toISOString(), schema, tables };
    yield line(header);
    let total = 0;
    for (const t of tables) {
      yield line(['table', t.name]);
      const list = t.columns.map(quoteIdent).join(', ');
      await client.query(`DECLARE pgexport_rows NO SCROLL CURSOR FOR SELECT row_to_json(r)::text AS j FROM (SELECT ${list} FROM ${quoteIdent(schema)}.${quoteIdent(t.name)}) r`);
      let rows = 0;
      for (;;) {
        const batch = await client.query<{ j: string }>(`FETCH FORWARD ${fetch} FROM pgexport_rows`);
        if (batch.rows.length) yield batch.rows.map((r) => r.j).join('\n') + '\n';
        rows += batch.rows.length;
        if (batch.rows.length < fetch) break;
      }
      await client.query('CLOSE pgexport_rows');
      yield line(['end', t.name, rows]);
      total += rows;
    }
    yield line(['done', { tables: tables.length, rows: total }]);
    await client.query('COMMIT');
    open = false;
  } finally {
    if (open) await client.query('ROLLBACK').catch(() => undefined);
  }
}

function parseHeader(text: string | undefined): ExportHeader {
  let h: Partial<ExportHeader> | null = null;
  try {
    h = text === undefined ? null : (JSON.parse(text) as Partial<ExportHeader>);
  } catch {
    h = null;
  }
  if (!h || h.format !== EXPORT_FORMAT) throw new Error('not a pgexport file (the first line is no pgexport header)');
  if (h.formatVersion !== EXPORT_FORMAT_VERSION) throw new Error(`pgexport format version ${String(h.formatVersion)} is not supported (this build reads ${EXPORT_FORMAT_VERSION})`);
  if (!Number.isInteger(h.schemaVersion) || !Array.isArray(h.tables)) throw new Error('the pgexport header is damaged');
  return h as ExportHeader;
}

function marker(text: string | undefined): unknown[] | null {
  if (text === undefined) throw new Error('the export ends early (truncated file)');
  if (!text.startsWith('[')) return null;
  const v = JSON.parse(text) as unknown;
  return Array.isArray(v) ? v : null;
}

/**
 * Loads an export into the connection's current schema, which must hold no table: applies the
 * service's migrations (the export's schema version must be this build's newest), inserts every
 * table's rows in foreign-key order in batches with the tables' own triggers off, re-enables them,
 * moves every serial/identity sequence past its column's largest value — all in one transaction,
 * so a failed load leaves the schema empty.
 */
export async function loadExport(client: ClientBase, lines: AsyncIterable<string>, opts: LoadOptions): Promise<LoadResult> {
  const it = lines[Symbol.asyncIterator]();
  const next = async () => {
    for (;;) {
      const r = await it.next();
      if (r.done) return undefined;
      if (r.value !== '') return r.value;
    }
  };
  const header = parseHeader(await next());
  if (header.service !== opts.service) throw new Error(`this export is of the service "${header.service}", not "${opts.service}"`);
  const newest = Math.max(0, ...opts.migrations.map((m) => m.version));
  if (header.schemaVersion !== newest)
    throw new Error(`the export has schema version ${header.schemaVersion} and this build's newest migration is ${newest}: restore it with the build that wrote it (a newer build then migrates the database when it starts)`);

  await client.query('BEGIN');
  try {
    const schema = (await client.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0]?.s;
    if (!schema) throw new Error('the connection has no current schema (search_path names no existing schema)');
    const existing = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')`,
      [schema],
    );
    if (Number(existing.rows[0]?.n) > 0) throw new Error(`the target schema "${schema}" is not empty (${existing.rows[0]?.n} relations): restore into an empty database`);

    await client.query(`CREATE TABLE ${MIGRATIONS_TABLE} (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`);
    for (const m of [...opts.migrations].sort((a, b) => a.version - b.version)) {
      await client.query(m.sql);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied) VALUES ($1, $2, $3)`, [m.version, m.name, Date.now()]);
    }

    const built = (await schemaTables(client)).tables;
    const shape = (ts: ExportTable[]) => JSON.stringify(ts.map((t) => [t.name, t.columns]).sort());
    if (shape(built) !== shape(header.tables)) throw new Error("the export's tables and columns differ from this build's schema at the same version");

    const q = (t: string) => `${quoteIdent(schema)}.${quoteIdent(t)}`;
    for (const t of header.tables) {
      await client.query(`ALTER TABLE ${q(t.name)} DISABLE TRIGGER USER`);
      const seeded = await client.query(`SELECT 1 FROM ${q(t.name)} LIMIT 1`);
      if (seeded.rowCount) throw new Error(`the migrations left rows in ${t.name}; the export cannot be loaded over them`);
    }

    const maxRows = opts.batchRows ?? 500;
    const maxBytes = opts.batchBytes ?? 4 * 1024 * 1024;
    let total = 0;
    for (const t of header.tables) {
      const open = marker(await next());
      if (!open || open[0] !== 'table' || open[1] !== t.name) throw new Error(`the export is damaged: expected the rows of ${t.name}`);
      const list = t.columns.map(quoteIdent).join(', ');
      const insert = `INSERT INTO ${q(t.name)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM json_populate_recordset(NULL::${q(t.name)}, $1::json)`;
      let batch: string[] = [];
      let bytes = 0;
      let rows = 0;
      const flush = async () => {
        if (!batch.length) return;
        await client.query(insert, [`[${batch.join(',')}]`]);
        rows += batch.length;
        batch = [];
        bytes = 0;
      };
      for (;;) {
        const text = await next();
        const end = marker(text);
        if (end) {
          if (end[0] !== 'end' || end[1] !== t.name) throw new Error(`the export is damaged: the rows of ${t.name} do not end where they should`);
          await flush();
          if (end[2] !== rows) throw new Error(`the export is damaged: ${t.name} has ${rows} rows, its end marker says ${String(end[2])}`);
          break;
        }
        batch.push(text as string);
        bytes += (text as string).length;
        if (batch.length >= maxRows || bytes >= maxBytes) await flush();
      }
      total += rows;
    }
    const done = marker(await next());
    if (!done || done[0] !== 'done') throw new Error('the export is damaged: no end-of-export marker after the last table');

    for (const t of header.tables) await client.query(`ALTER TABLE ${q(t.name)} ENABLE TRIGGER USER`);
    for (const t of header.tables) {
      for (const c of t.columns) {
        const seq = (await client.query<{ s: string | null }>('SELECT pg_get_serial_sequence($1, $2) AS s', [q(t.name), c])).rows[0]?.s;
        if (!seq) continue;
        const max = (await client.query<{ m: string | null }>(`SELECT MAX(${quoteIdent(c)})::text AS m FROM ${q(t.name)}`)).rows[0]?.m ?? null;
        if (max === null) await client.query('SELECT setval($1::regclass, 1, false)', [seq]);
        else await client.query('SELECT setval($1::regclass, $2::bigint, true)', [seq, max]);
      }
    }
    await client.query('COMMIT');
    return { schemaVersion: header.schemaVersion, tables: header.tables.length, rows: total };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
