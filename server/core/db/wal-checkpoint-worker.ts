/**
 * Worker thread of WalCheckpointer: for each pass it opens the database file, copies the write-ahead log back
 * into it (a PASSIVE checkpoint: it never waits for, nor blocks, the server's writes and reads) and closes it
 * again, so no connection outlives its pass (a store closed or crashed since leaves nothing open here).
 */
import Database from 'better-sqlite3';
import { serveTasks } from '../work/serve-tasks';

serveTasks({
  /** [frames in the log, frames now in the database file] after the pass. */
  checkpoint: (file: string): [number, number] => {
    const db = new Database(file, { fileMustExist: true });
    try {
      // The checkpoint fsyncs the file as the server's own would (synchronous = NORMAL in WAL mode).
      db.pragma('synchronous = NORMAL');
      const rows = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      const r = rows[0] ?? { log: 0, checkpointed: 0 };
      return [r.log, r.checkpointed];
    } finally {
      db.close();
    }
  },
});
