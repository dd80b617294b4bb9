/**
 * One synchronous SQL interface over both stores: better-sqlite3 satisfies it as it is, and the
 * PostgreSQL connection of pg-sync.ts implements it (one query at a time per process, like SQLite).
 * SQL is written once with `?` placeholders and portable syntax; the PostgreSQL side numbers the
 * placeholders and matches LIKE case-insensitively as SQLite does.
 */
export interface SqlRunResult {
  changes: number;
}

export interface SqlStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): SqlRunResult;
}

export interface SqlDb {
  prepare(sql: string): SqlStatement;
  /** One or more statements without parameters (migrations, DDL). */
  exec(sql: string): unknown;
  /** Wraps fn in a transaction (nested calls become savepoints); the returned function runs it. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): unknown;
}

export type SqlDialect = 'sqlite' | 'postgres';
