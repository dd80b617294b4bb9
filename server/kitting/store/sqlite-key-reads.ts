import type Database from 'better-sqlite3';
import type { RecordKey } from './types';

/** Keys per statement (one SELECT each, joined by UNION ALL). */
const KEYS_PER_READ = 16;

interface KeyRow {
  coll: string;
  id: string;
  data: string;
  stamps: string;
  deleted: number;
}

/** Records of a workspace by key, up to KEYS_PER_READ per statement (tx.getMany), each reached by the primary key. */
export class KeyReads {
  private readonly stmts = new Map<number, Database.Statement<string[], KeyRow>>();

  constructor(private readonly db: Database.Database) {}

  read(ws: string, keys: readonly RecordKey[]): KeyRow[] {
    const out: KeyRow[] = [];
    for (let i = 0; i < keys.length; i += KEYS_PER_READ) {
      const part = keys.slice(i, i + KEYS_PER_READ);
      let stmt = this.stmts.get(part.length);
      if (!stmt) {
        // One SELECT per key, joined: each is a search of the primary key (an OR of the keys may be planned as a
        // scan of the workspace's records).
        stmt = this.db.prepare(Array.from(part, () => 'SELECT coll, id, data, stamps, deleted FROM records WHERE ws = ? AND coll = ? AND id = ?').join(' UNION ALL '));
        this.stmts.set(part.length, stmt);
      }
      out.push(...stmt.all(...part.flatMap(([coll, id]) => [ws, coll, id])));
    }
    return out;
  }
}
