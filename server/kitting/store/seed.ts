import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberedSeries, type SeriesRegistry } from './series';
import type { Doc, Store, Tx } from './types';
import { daysSince, shiftDates } from './seed-dates';

export const SEEDS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'seeds');

/** One demo data file loaded into every new workspace, declared by the module that owns it. */
export interface SeedSpec {
  file: string;
  coll: string;
  /** Field holding the record key (default id). */
  key?: string;
  /**
   * The day (YYYY-MM-DD, Japan time) the file's dates were written for: they move by whole days so that
   * day is the day the workspace is seeded (seed-dates.ts). Unset: the dates stay as written (records
   * whose ids carry their month, such as invoices).
   */
  asOf?: string;
  /** Runs after the records are written, e.g. to move a number series past the seeded ids. */
  after?: (tx: Tx, docs: Doc[]) => Promise<void>;
}

const cache = new Map<string, Doc[]>();

export function readSeed(file: string): Doc[] {
  let docs = cache.get(file);
  if (!docs) {
    docs = JSON.parse(readFileSync(join(SEEDS_DIR, file), 'utf8')) as Doc[];
    cache.set(file, docs);
  }
  return docs.map((d) => structuredClone(d));
}

/**
 * Create the workspace if needed and load the demo data once (never over user data). The counters
 * of the numbered series (`series`) continue after the highest number found in the seeded records.
 */
export async function ensureWorkspace(store: Store, id: string, kind: string, seeds: SeedSpec[], series: SeriesRegistry = numberedSeries, now = Date.now()): Promise<void> {
  const existing = await store.workspace(id);
  if (existing?.seeded) return;
  if (!existing) await store.createWorkspace(id, kind);
  // Seed stamps are the lowest possible, so identical demo rows of a bench and central merge
  // without a trace on enrolment and any real edit, anywhere, wins over them.
  await store.transact(
    id,
    async (tx) => {
      for (const spec of seeds) {
        const docs = spec.asOf ? readSeed(spec.file).map((d) => shiftDates(d, daysSince(spec.asOf!, now), spec.asOf!)) : readSeed(spec.file);
        for (const doc of docs) await tx.put(spec.coll, String(doc[spec.key ?? 'id']), doc);
        for (const [counter, n] of Object.entries(series.levelsIn(spec.coll, docs))) await tx.bumpSeries(counter, n);
        if (spec.after) await spec.after(tx, docs);
      }
    },
    { seed: true },
  );
  // The series levels right after seeding: numbers up to them are demo numbers, identical on every
  // replica; numbers above them were issued by this replica (see server/kitting/sync/numbered.ts).
  await store.setMeta(seriesBaseKey(id), JSON.stringify(await store.replica.localSeries(id)));
  await store.markSeeded(id);
}

/** Meta key of a workspace's series levels right after its demo data was loaded. */
const seriesBaseKey = (ws: string) => `series_base:${ws}`;

/** A workspace's series levels after seeding (null when it was seeded before they were recorded). */
export async function seriesBase(store: Store, ws: string): Promise<Record<string, number> | null> {
  const raw = await store.meta(seriesBaseKey(ws));
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(parsed)) if (Number.isInteger(v) && (v as number) >= 0) out[k] = v as number;
    return out;
  } catch {
    return null;
  }
}

/** Highest number found in ids like SHP-1004 or TK-0672 (0 when none). */
function maxNumber(docs: Doc[], field: string, pattern: RegExp): number {
  let max = 0;
  for (const d of docs) {
    const m = pattern.exec(String(d[field] ?? ''));
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}
