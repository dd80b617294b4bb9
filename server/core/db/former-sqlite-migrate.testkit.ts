import type Database from 'better-sqlite3';

/**
 * The former synchronous SQLite runner (server/core/sql/sqlite-migrate.ts, removed), kept for tests only: it
 * builds files exactly as releases before the one runner left them, so upgrade tests open real former files.
 * Applies each migration not yet recorded in its own transaction and records it in schema_migrations.
 */
export function migrate(db: Database.Database, migrations: { version: number; name: string; sql: string }[]): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)');
  const done = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)');
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    })();
  }
  return (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
}
