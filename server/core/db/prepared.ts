import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * Named (prepared) statements on PostgreSQL: a statement with parameters is parsed once per pooled connection
 * and afterwards only bound and executed, so the server no longer parses, analyses and (after five runs, when
 * the generic plan is no worse) plans every short request statement again. The name is a hash of the text:
 * the same text has the same name on every connection, and a different text never shares one.
 *
 * Bounded: at most `limit` distinct texts are named per process (the rest run unnamed, as before), so a
 * statement built with a varying number of values cannot grow every connection's cache without end.
 * Statements without parameters (BEGIN, COMMIT, migration scripts) always run unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  constructor(private readonly limit: number) {}

  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.limit) return known;
    const name = `k_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, name);
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

/**
 * A service's switch for prepared statements (`<SERVICE>_DB_PREPARE`): unset or `1` on, `0` off; anything
 * else stops the start with an error naming the variable, so a typo never silently keeps the default.
 */
export function readPrepareSwitch(name: string, value: string | undefined): boolean {
  const v = value?.trim() ?? '';
  if (v === '' || v === '1') return true;
  if (v === '0') return false;
  throw new Error(`${name} must be 0 or 1, got ${value}`);
}

/** PostgreSQL's answer when a prepared statement's result columns changed under it (a migration by another process). */
const CHANGED_RESULT = '0A000';

function namingClient(client: pg.PoolClient, names: StatementNames): PostgresPoolClient {
  // A prepared statement went stale on this connection: it is closed when released, not reused.
  let stale = false;
  const wrapper = {
    get processID() {
      return (client as { processID?: number }).processID;
    },
    query: ((textOrCursor: unknown, values?: readonly unknown[]) => {
      if (typeof textOrCursor !== 'string') return client.query(textOrCursor as pg.Submittable) as never;
      const name = values && values.length > 0 ? names.nameOf(textOrCursor) : undefined;
      if (!name) return client.query(textOrCursor, values as unknown[]);
      return client.query({ name, text: textOrCursor, values: values as unknown[] }).catch((err: { code?: string; message?: string }) => {
        // This request fails (its transaction is aborted already); the next one gets a fresh connection.
        if (err?.code === CHANGED_RESULT && /cached plan/.test(String(err.message))) stale = true;
        throw err;
      });
    }) as unknown as PostgresPoolClient['query'],
    release: ((destroy?: boolean) => {
      const close = Boolean(destroy) || stale;
      stale = false;
      client.release(close);
    }) as PostgresPoolClient['release'],
  };
  return wrapper;
}

/** The pool as Kysely sees it, with every parameterised statement named (one wrapper per pooled connection). */
export function namingPool(pool: pg.Pool, names: StatementNames): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let w = wrapped.get(client);
      if (!w) {
        w = namingClient(client, names);
        wrapped.set(client, w);
      }
      return w;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}
