import type { Migration } from './sqlite-migrate';
import type { SqlDb } from './types';

/**
 * Apply numbered migrations to a PostgreSQL database through the synchronous interface, each in its
 * own transaction. The transaction's advisory lock makes processes started together apply each
 * migration once (the second one finds it recorded).
 */
export function migratePostgres(db: SqlDb, migrations: Migration[]): number {
  db.transaction(() => db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)'))();
  const done = db.prepare('SELECT 1 AS done FROM schema_migrations WHERE version = ?');
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)');
  for (const m of migrations) {
    db.transaction(() => {
      if (done.get(m.version)) return;
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    })();
  }
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}
