import type { Database } from './database';

/**
 * Tests only: records every statement a store sends from now on, BEGIN and COMMIT included (on PostgreSQL
 * each is a round trip to the server). SQLite: every statement Kysely prepares on the connection;
 * PostgreSQL: every query a pooled client sends (clients are wrapped as they are checked out).
 */
export interface StatementLog {
  /** The statements recorded since the last take (their SQL text), and a fresh start. */
  take: () => string[];
}

const WRAPPED = Symbol('statement-counter');

export function recordStatements(database: Pick<Database<unknown>, 'sqlite' | 'pool'>): StatementLog {
  let seen: string[] = [];
  const note = (text: unknown) => {
    const t = typeof text === 'string' ? text : typeof text === 'object' && text && 'text' in text ? String((text as { text: unknown }).text) : String(text);
    seen.push(t.replace(/\s+/g, ' ').trim());
  };
  if (database.sqlite) {
    const conn = database.sqlite;
    const prepare = conn.prepare.bind(conn);
    conn.prepare = ((source: string) => {
      note(source);
      return prepare(source);
    }) as typeof conn.prepare;
  } else if (database.pool) {
    database.pool.on('acquire', (client) => {
      const c = client as typeof client & { [WRAPPED]?: true };
      if (c[WRAPPED]) return;
      c[WRAPPED] = true;
      const query = c.query.bind(c) as (...args: unknown[]) => unknown;
      (c as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        note(args[0]);
        return query(...args);
      };
    });
  }
  return {
    take: () => {
      const out = seen;
      seen = [];
      return out;
    },
  };
}
