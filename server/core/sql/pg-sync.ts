import { createRequire } from 'node:module';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { SqlDb, SqlRunResult, SqlStatement } from './types';
import { toPostgres } from './translate';
import { WORKER_SOURCE } from './pg-sync-worker';

/** A PostgreSQL error as the service sees it (code is the SQLSTATE, e.g. 23505 for a unique violation). */
class PgSqlError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly sql: string,
  ) {
    super(message);
    this.name = 'PgSqlError';
  }
}

interface Reply {
  rows?: Record<string, unknown>[];
  changes?: number;
  ok?: boolean;
  error?: { message: string; code: string | null; detail: string | null };
}

/** How long one query may block the process before it is reported as failed. */
const QUERY_TIMEOUT_MS = 120_000;

/**
 * A PostgreSQL connection used synchronously: the query runs on a worker thread (pg) while this
 * thread waits on a shared flag, so services keep SQLite's one-query-at-a-time model. Transactions
 * take a transaction-scoped advisory lock of the schema, so writers of several processes on one
 * database are serialised like SQLite's single writer.
 */
export class PgSyncDb implements SqlDb {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private depth = 0;
  private closed = false;
  private readonly translated = new Map<string, string>();

  constructor(url: string) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const pgPath = createRequire(import.meta.url).resolve('pg');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, flag: this.flag, url, pgPath }, transferList: [port2] });
    this.worker.unref();
    this.call({ kind: 'open' }, 'connect');
  }

  private call(req: Record<string, unknown>, sql: string): Reply {
    if (this.closed) throw new PgSqlError('The database connection is closed', null, sql);
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(req);
    const waited = Atomics.wait(this.flag, 0, 0, QUERY_TIMEOUT_MS);
    const msg = receiveMessageOnPort(this.port);
    if (!msg) throw new PgSqlError(waited === 'timed-out' ? 'PostgreSQL did not answer in time' : 'PostgreSQL connection lost', null, sql);
    const reply = msg.message as Reply;
    if (reply.error) throw new PgSqlError(reply.error.message, reply.error.code, sql);
    return reply;
  }

  private sqlFor(sql: string): string {
    let t = this.translated.get(sql);
    if (t === undefined) {
      if (this.translated.size > 2_000) this.translated.clear();
      t = toPostgres(sql);
      this.translated.set(sql, t);
    }
    return t;
  }

  query(sql: string, params: unknown[]): Reply {
    return this.call({ kind: 'query', sql: this.sqlFor(sql), params: params.map(bindable) }, sql);
  }

  prepare(sql: string): SqlStatement {
    return {
      get: (...params: unknown[]) => this.query(sql, params).rows?.[0],
      all: (...params: unknown[]) => this.query(sql, params).rows ?? [],
      run: (...params: unknown[]): SqlRunResult => ({ changes: this.query(sql, params).changes ?? 0 }),
    };
  }

  exec(sql: string): this {
    this.call({ kind: 'query', sql }, sql);
    return this;
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const depth = this.depth;
      const savepoint = `sp_${depth}`;
      this.exec(depth === 0 ? 'BEGIN; SELECT pg_advisory_xact_lock(hashtext(current_schema()))' : `SAVEPOINT ${savepoint}`);
      this.depth++;
      try {
        const out = fn(...args);
        this.depth--;
        this.exec(depth === 0 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
        return out;
      } catch (err) {
        this.depth = depth;
        try {
          this.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`);
        } catch {
          // the original error is the one worth reporting
        }
        throw err;
      }
    };
  }

  close(): void {
    if (this.closed) return;
    try {
      this.call({ kind: 'close' }, 'close');
    } finally {
      this.closed = true;
      this.port.close();
      void this.worker.terminate();
    }
  }
}

/** better-sqlite3 binds numbers, strings, buffers and null; booleans are stored as 1/0 there. */
function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return v.toString();
  return v;
}
