/**
 * Worker thread of WalCheckpointer: its own connection per database file copies the write-ahead log back
 * into the file (a PASSIVE checkpoint: it never waits for, nor blocks, the server's writes and reads).
 */
import Database from 'better-sqlite3';
import { serveTasks } from '../work/serve-tasks';

const open = new Map<string, Database.Database>();

function connection(file: string): Database.Database {
  let db = open.get(file);
  if (!db) {
    db = new Database(file, { fileMustExist: true });
    // The checkpoint fsyncs the file as the server's own would (synchronous = NORMAL in WAL mode).
    db.pragma('synchronous = NORMAL');
    open.set(file, db);
  }
  return db;
}

serveTasks({
  /** [frames in the log, frames now in the database file] after the pass. */
  checkpoint: (file: string): [number, number] => {
    const row = connection(file).pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    const r = row[0] ?? { log: 0, checkpointed: 0 };
    return [r.log, r.checkpointed];
  },
  forget: (file: string): void => {
    open.get(file)?.close();
    open.delete(file);
  },
});
