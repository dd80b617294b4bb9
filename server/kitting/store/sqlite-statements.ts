import type Database from 'better-sqlite3';

/**
 * The statements both SQLite write paths share: the store's transactions (sqlite-store.ts) and the
 * replication primitives (replica-statements.ts) write records, the change log and meta the same way.
 */
export function sharedStatements(db: Database.Database) {
  return {
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    upsert: db.prepare(
      `INSERT INTO records (ws, coll, id, data, stamps, deleted, hlc) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(ws, coll, id) DO UPDATE SET data = excluded.data, stamps = excluded.stamps, deleted = excluded.deleted, hlc = excluded.hlc`,
    ),
    /** origin: '' for a local write, else the bench (or central) a merged change came from. */
    change: db.prepare('INSERT INTO changes (ws, coll, id, hlc, fields, origin) VALUES (?, ?, ?, ?, ?, ?)'),
  };
}
