import type Database from 'better-sqlite3';
import type { Doc, Store } from '../../store/types';

interface Cell {
  hlc: string;
  value: unknown;
}

/** JSON with object keys sorted and null-valued fields left out (null and absent mean the same). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Doc)
      .filter(([, x]) => x !== null && x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

const line = (coll: string, id: string, data: Doc, deleted: boolean, stamps: Record<string, string>) =>
  `${coll}\u0001${id}\u0001${canonical(data)}\u0001${deleted ? 1 : 0}\u0001${canonical(stamps)}`;

/** A replica's state of one workspace, one canonical line per record in (coll, id) order. */
export function dumpReplica(db: Database.Database, ws: string): string[] {
  const rows = db
    .prepare<[string], { coll: string; id: string; data: string; stamps: string; deleted: number }>(
      'SELECT coll, id, data, stamps, deleted FROM records WHERE ws = ? ORDER BY coll, id',
    )
    .all(ws);
  return rows.map((r) => line(r.coll, r.id, JSON.parse(r.data) as Doc, r.deleted === 1, JSON.parse(r.stamps) as Record<string, string>));
}

/** The same lines as dumpReplica, read through the replica interface (any store). */
export async function dumpStore(store: Store, ws: string): Promise<string[]> {
  const out: string[] = [];
  let key = '';
  for (;;) {
    const page = await store.replica.snapshotPage(ws, key, 2000);
    for (const r of page.records) out.push(line(r.coll, r.id, r.data, r.deleted, r.stamps));
    if (page.nextKey === null) return out;
    key = page.nextKey;
  }
}

/**
 * Every accepted write, keeping the highest stamp per field: what the workspace must be after
 * quiescence. Capped collections keep their newest records like the replicas do.
 */
export class Oracle {
  private readonly recs = new Map<string, Map<string, Cell>>();
  private readonly caps = new Map<string, number>();
  writes = 0;

  cap(coll: string, keep: number): void {
    this.caps.set(coll, keep);
  }

  add(coll: string, id: string, hlc: string, fields: Doc): void {
    const key = `${coll}\u0001${id}`;
    let rec = this.recs.get(key);
    if (!rec) this.recs.set(key, (rec = new Map()));
    for (const [f, value] of Object.entries(fields)) {
      const cur = rec.get(f);
      if (!cur || cur.hlc < hlc) rec.set(f, { hlc, value });
    }
    this.writes += 1;
  }

  expected(): string[] {
    const rows: { coll: string; id: string; data: Doc; deleted: boolean; stamps: Record<string, string>; max: string }[] = [];
    for (const [key, rec] of this.recs) {
      const [coll, id] = key.split('\u0001') as [string, string];
      const data: Doc = {};
      const stamps: Record<string, string> = {};
      let deleted = false;
      let max = '';
      for (const [f, c] of rec) {
        stamps[f] = c.hlc;
        if (c.hlc > max) max = c.hlc;
        if (f === '_deleted') deleted = c.value === true;
        else if (c.value !== null && c.value !== undefined) data[f] = c.value;
      }
      rows.push({ coll, id, data, deleted, stamps, max });
    }
    const kept = new Set<(typeof rows)[number]>();
    for (const [coll, keep] of this.caps) {
      const of = rows.filter((r) => r.coll === coll).sort((a, b) => (a.max === b.max ? (a.id < b.id ? 1 : -1) : a.max < b.max ? 1 : -1));
      for (const r of of.slice(0, keep)) kept.add(r);
    }
    return rows
      .filter((r) => !this.caps.has(r.coll) || kept.has(r))
      .sort((a, b) => (a.coll === b.coll ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.coll < b.coll ? -1 : 1))
      .map((r) => line(r.coll, r.id, r.data, r.deleted, r.stamps));
  }
}

/** Record a difference between what a replica holds and what it should hold (first three of each side). */
export function compare(what: string, got: string[], want: string[], problems: string[]): void {
  if (got.length === want.length && got.every((l, i) => l === want[i])) return;
  const g = new Set(got);
  const w = new Set(want);
  const missing = want.filter((l) => !g.has(l)).slice(0, 3);
  const extra = got.filter((l) => !w.has(l)).slice(0, 3);
  problems.push(`${what}: ${got.length} vs ${want.length} records; missing ${JSON.stringify(missing)}; extra ${JSON.stringify(extra)}`);
}
