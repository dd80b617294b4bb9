import type Database from 'better-sqlite3';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createApp } from '../app';
import type { Mode } from '../server-config';
import { testConfig } from './config.testkit';
import { P, PLATFORM_WS } from '../modules/platform-collections';
import { loadOrCreateSecret } from '../../core/security/signing';
import { declaredLookups, lookupIndexName } from '../store/lookups';
import { SqliteStore } from '../store/sqlite-store';
import { Client } from './harness.testkit';

/**
 * What a write costs, checked without timing: the SQL statements each request runs (with their values
 * blanked out, so two runs compare by shape) and SQLite's query plan of each, which must reach its rows
 * by a full unique key or through a declared lookup's index, never by a scan, a range or a sort.
 */
export interface Rig {
  store: SqliteStore;
  client: Client;
  ws: string;
  /** Statements run while `fn` runs. */
  statements(fn: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

export async function rig(mode: Mode): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'kitting-cost-'));
  let trace: string[] | null = null;
  const store = new SqliteStore({ file: join(dir, 'kitting.db'), verbose: (sql) => trace?.push(sql) });
  const { app, ctx } = await createApp({ store, config: testConfig({ dataDir: dir, mode }), secret: loadOrCreateSecret(dir) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // Filling 50,000 rows holds the event loop for seconds: keep the client's connection open meanwhile.
  server.keepAliveTimeout = 120_000;
  const addr = server.address();
  const client = new Client(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
  expect((await client.get('/api/devices')).status).toBe(200);
  const ws = ctx.benchWorkspace ?? (client.workspaceId() as string);
  if (mode === 'central') {
    // A tenant with a plan: every device write runs the plan check (enterprise: no device limit).
    await store.transact(PLATFORM_WS, (tx) => tx.patch(P.tenants, ws, { planKey: 'enterprise' }));
  }
  // A started bench has read its enrolment (boot → startSync → bench.bind); routes that ask whether the bench is
  // enrolled (portal links) then read nothing more.
  await ctx.sync?.bench?.load();
  // One more request, so what the server learns once per client (a known workspace) is learnt before measuring.
  expect((await client.get('/api/devices')).status).toBe(200);
  return {
    store,
    client,
    ws,
    async statements(fn) {
      trace = [];
      try {
        await fn();
        return trace;
      } finally {
        trace = null;
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}


/** The statement with its values replaced, so two runs compare by shape. */
export const shape = (sql: string) => sql.replace(/'(?:[^']|'')*'/g, '?').replace(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g, '?');

/** Columns of each unique index (and of a WITHOUT ROWID primary key) of a table. */
function uniqueKeys(db: Database.Database, table: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  const pk = (db.pragma(`table_info(${table})`) as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  if (pk.length) keys.set('PRIMARY KEY', pk.map((c) => c.name));
  for (const ix of db.pragma(`index_list(${table})`) as { name: string; unique: number }[]) {
    if (ix.unique) keys.set(ix.name, (db.pragma(`index_info(${ix.name})`) as { name: string }[]).map((c) => c.name));
  }
  return keys;
}

const lookupIndexes = () => new Set(declaredLookups().map(lookupIndexName));

/** Plan steps of a statement that may visit more than one row of a table (empty: every access is by a full unique key). */
export function unboundedSteps(db: Database.Database, sql: string): string[] {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  const bad: string[] = [];
  for (const { detail } of plan) {
    if (/^(SCAN CONSTANT ROW|SCALAR SUBQUERY|CORRELATED SCALAR SUBQUERY|LIST SUBQUERY)/.test(detail)) continue;
    // A compound SELECT (getMany's UNION ALL): the headings of its parts; each part's SEARCH is checked below.
    if (/^(COMPOUND QUERY|LEFT-MOST SUBQUERY|UNION ALL)$/.test(detail)) continue;
    // The rows of a multi-row INSERT ... VALUES (a transaction's change log written at commit): constants.
    if (/^SCAN \d+-ROW VALUES CLAUSE$/.test(detail)) continue;
    if (/USING INTEGER PRIMARY KEY \(rowid=\?\)$/.test(detail)) continue;
    const m = /^SEARCH (\w+) USING (?:COVERING )?(?:INDEX (\w+)|(PRIMARY KEY)) \((.*)\)$/.exec(detail);
    if (m) {
      const [, table, index, primary, terms] = m as unknown as [string, string, string | undefined, string | undefined, string];
      const bound = new Set(terms.split(' AND ').filter((t) => /^\w+=\?$/.test(t)).map((t) => t.slice(0, -2)));
      const key = uniqueKeys(db, table).get(index ?? primary ?? '');
      if (key && key.every((c) => bound.has(c))) continue;
      // A declared lookup's index, every column bound: it visits the matching records only.
      const allBound = terms.split(' AND ').every((t) => /^(\w+|<expr>)=\?$/.test(t));
      if (index && lookupIndexes().has(index) && allBound && terms.split(' AND ').length === 2) continue;
    }
    bad.push(`${detail}  <-  ${sql.slice(0, 160)}`);
  }
  return bad;
}

export const isQuery = (sql: string) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql);

