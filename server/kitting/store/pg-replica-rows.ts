/** Row shapes and page limits of the PostgreSQL replication primitives (pg-replica.ts). */
import type { BenchRow, Doc, WireChange } from './types';

/** Most JSON one pull or snapshot page carries (a company logo alone may be 6 MB). */
const PAGE_BYTES = 8 * 1024 * 1024;
/** How long central remembers the answer of a push batch. */
export const BATCH_MEMORY_MS = 7 * 24 * 3_600_000;

/** The first rows of a page that stay under PAGE_BYTES (always at least one). */
export function capBytes<T>(rows: T[], size: (r: T) => number): T[] {
  let total = 0;
  for (let i = 0; i < rows.length; i += 1) {
    total += size(rows[i] as T);
    if (total > PAGE_BYTES && i > 0) return rows.slice(0, i);
  }
  return rows;
}

export interface BenchDbRow {
  ws: string;
  bench: string;
  name: string;
  created: number;
  revoked: boolean;
  last_seen: number;
  acked: number;
}

export const toBench = (r: BenchDbRow): BenchRow => ({ ws: r.ws, bench: r.bench, name: r.name, created: r.created, revoked: r.revoked, lastSeen: r.last_seen, acked: r.acked });

export interface ChangeRow {
  seq: number;
  coll: string;
  id: string;
  hlc: string;
  fields: Doc;
}

export const toChange = (r: ChangeRow): WireChange => ({ seq: r.seq, coll: r.coll, id: r.id, hlc: r.hlc, fields: r.fields });
