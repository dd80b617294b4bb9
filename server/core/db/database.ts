import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import pg from 'pg';
import { prepareSqliteFile } from '../security/private-files';
import { namingPool, StatementNames } from './prepared';

/** Distinct statement texts prepared per process on PostgreSQL; later ones run unnamed. */
const PREPARED_LIMIT = 1000;

export type Dialect = 'sqlite' | 'postgres';

export interface OpenDatabaseOptions {
  /** SQLite file (`:memory:` for a private in-memory database); used when `url` is not set. */
  file?: string;
  /** `postgres://…` selects PostgreSQL on a connection pool. */
  url?: string | null;
  /** PostgreSQL: statement_timeout of every pooled connection (keep it below the request timeout). */
  statementTimeoutMs: number;
  /** PostgreSQL: lock_timeout of every pooled connection. SQLite: busy_timeout. */
  lockTimeoutMs: number;
  /** PostgreSQL: most connections in the pool (default 10). */
  max?: number;
  /**
   * PostgreSQL: parameterised statements are prepared once per pooled connection (default). False for a pooler
   * that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  prepare?: boolean;
  /** A pooled connection failed while idle (it is dropped and the next query opens a new one). */
  onConnectionError?: (err: Error) => void;
}

export interface Database<DB> {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Runs a script of several statements without parameters (migrations) on this connection or transaction. */
  script: (executor: Kysely<DB>, text: string) => Promise<void>;
  /** PostgreSQL: the pool (migrations take a dedicated connection from it); null on SQLite. */
  pool: pg.Pool | null;
  /** SQLite: the connection (migrations run on it directly); null on PostgreSQL. */
  sqlite: BetterSqlite3.Database | null;
  close: () => Promise<void>;
}

/** int8 (COUNT, SUM, BIGINT) and numeric arrive as numbers: the schemas keep integers well below 2^53. */
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * SQLite transactions start with BEGIN IMMEDIATE: the write lock is taken (waiting up to busy_timeout)
 * before the first read, so two processes on one file never both read and then fail to upgrade (SQLITE_BUSY).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.config);
  }
}

function openSqlite<DB>(file: string, opts: OpenDatabaseOptions): Database<DB> {
  prepareSqliteFile(file);
  const conn = new BetterSqlite3(file);
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  conn.pragma('foreign_keys = ON');
  conn.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.lockTimeoutMs))}`);
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: conn }) });
  let closed = false;
  return {
    db, dialect: 'sqlite', pool: null, sqlite: conn,
    // One connection: a script inside a transaction runs on the same connection the transaction holds.
    script: async (_executor, text) => void conn.exec(text),
    close: async () => {
      if (closed) return;
      closed = true;
      if (file !== ':memory:' && conn.open) conn.pragma('wal_checkpoint(TRUNCATE)');
      await db.destroy();
    },
  };
}

function openPostgres<DB>(url: string, opts: OpenDatabaseOptions): Database<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    // Sent in each connection's startup packet: every pooled connection has them, re-opened ones too.
    statement_timeout: opts.statementTimeoutMs,
    lock_timeout: opts.lockTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(opts.statementTimeoutMs, 1000),
    connectionTimeoutMillis: Math.max(opts.statementTimeoutMs, 5000),
    types,
  } as pg.PoolConfig);
  // An idle connection that dies (server restart, pg_terminate_backend, network) is removed from the pool
  // by pg; without a listener the error would end the process.
  pool.on('error', (err) => opts.onConnectionError?.(err));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: opts.prepare === false ? pool : namingPool(pool, new StatementNames(PREPARED_LIMIT)) }) });
  let closed = false;
  return {
    db, dialect: 'postgres', pool, sqlite: null,
    // Without parameters pg uses the simple query protocol, which runs several statements.
    script: async (executor, text) => void (await sql.raw(text).execute(executor)),
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/** One database handle: SQLite (embedded default, WAL) or PostgreSQL on a pool, behind the same Kysely API. */
export function openDatabase<DB>(opts: OpenDatabaseOptions): Database<DB> {
  if (opts.url) return openPostgres<DB>(opts.url, opts);
  return openSqlite<DB>(opts.file ?? ':memory:', opts);
}

/** The dialect a handle (or a transaction of it) speaks, for the few fragments written per dialect. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
