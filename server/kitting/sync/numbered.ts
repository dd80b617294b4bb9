import { numberedSeries, type NumberedSeries } from '../store/series';
import type { Doc, Rewrite, Store, WireRecord } from '../store/types';

/**
 * Renumbering: what a bench rewrites when central issued the same numbers while the bench worked
 * unenrolled. Which fields hold numbers, and how they read and write, comes from the registry of
 * numbered series the modules declare (server/kitting/store/series.ts).
 */

const num = (m: RegExpExecArray) => Number(m.groups?.n);
const period = (m: RegExpExecArray) => m.groups?.p ?? '';

/** What a bench's numbers of one series become: n in (base, level] turns into n + offset. */
export interface SeriesShift {
  base: number;
  level: number;
  offset: number;
}

const keyOf = (coll: string, id: string) => `${coll}\u0001${id}`;

/**
 * The rewrites that move a bench's own numbers (above its seeded base) of the shifted series to
 * their new range, references included. Tombstones move too: one left under an old number would
 * delete central's record of that number.
 */
export function planRenumbering(records: WireRecord[], shifts: Record<string, SeriesShift>, table: NumberedSeries[] = numberedSeries.all()): Rewrite[] {
  const out = new Map<string, Rewrite>();
  const rewriteOf = (r: WireRecord): Rewrite => {
    const k = keyOf(r.coll, r.id);
    let w = out.get(k);
    if (!w) out.set(k, (w = { coll: r.coll, from: r.id, to: r.id, data: { ...r.data }, changed: [] }));
    return w;
  };
  const set = (w: Rewrite, fields: Doc) => {
    for (const [f, v] of Object.entries(fields)) {
      if (w.data[f] === v) continue;
      w.data[f] = v;
      if (!w.changed.includes(f)) w.changed.push(f);
    }
  };
  /** Old key -> new key per collection, for references. */
  const moved = new Map<string, string>();
  for (const r of records) {
    for (const t of table) {
      if (t.coll !== r.coll) continue;
      const raw = t.keyed ? r.id : r.data[t.field];
      if (typeof raw !== 'string' && typeof raw !== 'number') continue;
      const before = String(raw);
      const m = t.pattern.exec(before);
      if (!m) continue;
      const shift = shifts[t.counter(period(m))];
      const n = num(m);
      if (!shift || !(n > shift.base && n <= shift.level)) continue;
      const newN = n + shift.offset;
      const value = t.format(newN, period(m));
      const after = String(value);
      const w = rewriteOf(r);
      if (t.keyed) {
        w.to = after;
        moved.set(keyOf(r.coll, r.id), after);
      }
      if (!t.keyed || r.data[t.field] === before) set(w, { [t.field]: value });
      if (t.follow) set(w, t.follow(r.data, before, after, n, newN));
    }
  }
  for (const t of table) {
    for (const ref of t.references ?? []) {
      for (const r of records) {
        if (r.coll !== ref.coll) continue;
        const target = r.data[ref.field];
        const to = typeof target === 'string' ? moved.get(keyOf(t.coll, target)) : undefined;
        if (to !== undefined) set(rewriteOf(r), { [ref.field]: to });
      }
    }
  }
  return [...out.values()].filter((w) => w.to !== w.from || w.changed.length > 0);
}

/** Meta key where a bench keeps the renumbering it applied to its local workspace (for the record). */
export const renumberedKey = (ws: string) => `sync_renumbered:${ws}`;

/**
 * Bench: apply central's answer (series -> offset) to the local workspace in one transaction,
 * before its records move into the central workspace. Answers the number of records rewritten.
 */
export async function renumberLocal(
  store: Store,
  ws: string,
  offsets: Record<string, number>,
  levels: Record<string, number>,
  base: Record<string, number>,
  table: NumberedSeries[] = numberedSeries.all(),
): Promise<number> {
  const shifts: Record<string, SeriesShift> = {};
  for (const [series, offset] of Object.entries(offsets)) {
    const level = levels[series];
    if (level === undefined || !Number.isInteger(offset) || offset <= 0) throw new Error(`renumbering of series ${series} not understood`);
    shifts[series] = { base: base[series] ?? 0, level, offset };
  }
  if (Object.keys(shifts).length === 0) return 0;
  return store.replica.renumber(ws, {
    levels: Object.fromEntries(Object.entries(shifts).map(([s, x]) => [s, x.level])),
    bump: Object.fromEntries(Object.entries(shifts).map(([s, x]) => [s, x.level + x.offset])),
    plan: (records) => planRenumbering(records, shifts, table),
    meta: { [renumberedKey(ws)]: JSON.stringify(shifts) },
  });
}
