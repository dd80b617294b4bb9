/**
 * Change-log compaction (central), the same rule on both stores. Below a horizon every field of every
 * record keeps only its latest change: each change row keeps the fields for which it is the latest
 * (same seq, stamp and origin), and a row none of whose fields is the latest anymore is dropped.
 *
 * Why no bench can lose data: a field's latest change always has the highest seq of its changes, so a
 * bench pulling from any cursor still receives, for every field it has not seen the latest of, that
 * latest change (per-field LWW keeps exactly that value). A bench whose cursor lies below the horizon is
 * told to load a snapshot instead (server/sync/central.ts), which is cheaper than replaying the log.
 */
import { formatHlc } from '../../../shared/hlc';

type Doc = Record<string, unknown>;

/** When changes become compactable. */
export interface CompactionPolicy {
  /** Changes stamped within this window before `now` are kept as written (ms). */
  retentionMs: number;
  /** A bench not seen for this long no longer holds the horizon back (it loads a snapshot when it returns) (ms). */
  activeMs: number;
  /** Central's time (ms). */
  now: number;
}

export const DEFAULT_POLICY = { retentionMs: 7 * 24 * 3_600_000, activeMs: 30 * 24 * 3_600_000 };

/** What one compaction of a workspace's log did. */
export interface CompactionReport {
  ws: string;
  /** Every change at or below this seq is compacted; a pull from below it answers `resync`. */
  through: number;
  /** Change rows before and after, and their JSON bytes. */
  before: LogSize;
  after: LogSize;
}

export interface LogSize {
  changes: number;
  bytes: number;
}

export interface LogRow {
  seq: number;
  coll: string;
  id: string;
  fields: Doc;
}

/** The store side of a compaction: paged reads of the log and atomic batches of rewrites. */
export interface CompactableLog {
  /** Rows with after < seq <= through, in seq order. */
  page(after: number, through: number, limit: number): Promise<LogRow[]>;
  /** Replace the fields of some rows and drop others, atomically. */
  apply(rewrite: { seq: number; fields: Doc }[], drop: number[]): Promise<void>;
}

/** Stamps of changes older than `cutoffMs` sort below this string (HLCs sort as text). */
export const hlcBefore = (cutoffMs: number): string => formatHlc({ ms: Math.max(0, Math.floor(cutoffMs)), counter: 0, node: '' });

/** The seq below which a workspace's log may be compacted: before the retention window and every active bench's cursor. */
export function horizonOf(lastSeq: number, firstRecentSeq: number | null, oldestActiveCursor: number | null): number {
  const byAge = firstRecentSeq === null ? lastSeq : firstRecentSeq - 1;
  return Math.max(0, Math.min(byAge, oldestActiveCursor ?? Number.POSITIVE_INFINITY));
}

const PAGE = 10_000;
const BATCH = 5_000;
const keyOf = (r: LogRow) => `${r.coll}\u0001${r.id}`;

/**
 * Compact the log up to `through`; rows at or below `from` were compacted before (only the records
 * changed since are revisited). Each batch of rewrites is atomic and safe on its own (it only drops
 * field values a later change of the same field overrides), so a compaction cut short leaves a
 * correct log and the next one completes it.
 */
export async function compactLog(log: CompactableLog, from: number, through: number): Promise<void> {
  if (through <= from) return;
  // Pass 1: the latest seq of every record field changed in (from, through].
  const latest = new Map<string, Map<string, number>>();
  for (let after = from; ; ) {
    const rows = await log.page(after, through, PAGE);
    for (const r of rows) {
      const k = keyOf(r);
      let fields = latest.get(k);
      if (!fields) latest.set(k, (fields = new Map()));
      for (const f of Object.keys(r.fields)) fields.set(f, r.seq);
    }
    if (rows.length < PAGE) break;
    after = (rows[rows.length - 1] as LogRow).seq;
  }
  if (latest.size === 0) return;
  // Pass 2: every row of those records up to `through` keeps only the fields it is the latest change of.
  let rewrite: { seq: number; fields: Doc }[] = [];
  let drop: number[] = [];
  const flush = async () => {
    if (rewrite.length === 0 && drop.length === 0) return;
    await log.apply(rewrite, drop);
    rewrite = [];
    drop = [];
  };
  for (let after = 0; ; ) {
    const rows = await log.page(after, through, PAGE);
    for (const r of rows) {
      const fields = latest.get(keyOf(r));
      if (!fields) continue;
      const kept: Doc = {};
      let n = 0;
      let all = true;
      for (const [f, v] of Object.entries(r.fields)) {
        if (fields.get(f) === r.seq || (fields.get(f) === undefined && r.seq <= from)) {
          kept[f] = v;
          n += 1;
        } else all = false;
      }
      if (all) continue;
      if (n === 0) drop.push(r.seq);
      else rewrite.push({ seq: r.seq, fields: kept });
      if (rewrite.length + drop.length >= BATCH) await flush();
    }
    if (rows.length < PAGE) break;
    after = (rows[rows.length - 1] as LogRow).seq;
  }
  await flush();
}
