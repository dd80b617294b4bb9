import { clip } from '../../../../shared/fields';
import { declareCap } from '../../store/caps';
import { declareSeries, followSeq, issueNumber, padNumber } from '../../store/series';
import type { Doc, Tx } from '../../store/types';

export const SHIFTS = 'shifts';
export const ROSTER_ID = 'roster';
export const DRAFT_ID = 'draft';
export const SHIFT_HISTORY = 'shiftHistory';
export const STAFF = 'staff';

export const SHIFT_VALUES = ['day', 'late', 'night', 'disp', 'off'] as const;
export type ShiftValue = (typeof SHIFT_VALUES)[number];
export type Grid = Record<string, ShiftValue[]>;

export interface ClockRow {
  in: string | null;
  out: string | null;
  status: string;
  units: number;
}
export type Clock = Record<string, ClockRow>;

/** A staged draft lives 12 hours. */
const DRAFT_TTL_MS = 12 * 3_600_000;
/** Roster history keeps the 20 newest snapshots. */
export const HISTORY_MAX = 20;
// every replica (central included) trims history that arrives from elsewhere to the same cap
declareCap(SHIFT_HISTORY, HISTORY_MAX);
/** Roster snapshots snap-00001, … (seq repeats the number). */
const SNAPSHOT_NUMBERS = declareSeries({
  name: 'shiftHistory',
  period: 'none',
  coll: SHIFT_HISTORY,
  field: 'id',
  keyed: true,
  format: (n) => `snap-${padNumber(n, 5)}`,
  pattern: /^snap-(?<n>\d{5,})$/,
  reserve: 50,
  follow: followSeq,
});
export const REASON_APPLY = '適用前のシフト';
export const REASON_RESTORE = '復元前のシフト';

export interface DiffEntry {
  staffId: string;
  day: number;
  from: ShiftValue | null;
  to: ShiftValue;
}

export interface Draft {
  grid: Grid;
  diff: DiffEntry[];
  ts: number;
  status: 'unconfirmed';
}

const known = new Set<string>(SHIFT_VALUES);
const toValue = (v: unknown): ShiftValue => (typeof v === 'string' && known.has(v) ? (v as ShiftValue) : 'off');

/** Rows of a submitted grid that read as 7 days (unknown values become off); other rows are left out. */
export function readGrid(raw: unknown, staffIds: Set<string>): Grid {
  const out: Grid = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, row] of Object.entries(raw as Record<string, unknown>)) {
    const id = clip(key, 40);
    if (!staffIds.has(id) || !Array.isArray(row) || row.length !== 7) continue;
    out[id] = row.map(toValue);
  }
  return out;
}

/** Cell changes from one grid to another, row by row, Monday (0) to Sunday (6). */
export function gridDiff(from: Grid, to: Grid): DiffEntry[] {
  const diff: DiffEntry[] = [];
  for (const [staffId, row] of Object.entries(to)) {
    const before = from[staffId];
    row.forEach((v, day) => {
      const prev = before ? (before[day] ?? null) : null;
      if (prev !== v) diff.push({ staffId, day, from: prev, to: v });
    });
  }
  return diff;
}

export function readClock(raw: unknown, staffIds: Set<string>): Clock {
  const out: Clock = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, row] of Object.entries(raw as Record<string, unknown>)) {
    const id = clip(key, 40);
    if (!staffIds.has(id) || !row || typeof row !== 'object' || Array.isArray(row)) continue;
    const r = row as Record<string, unknown>;
    const time = (v: unknown) => (typeof v === 'string' && /^\d{2}:\d{2}$/.test(v) ? v : null);
    const units = Number(r.units);
    out[id] = {
      in: time(r.in),
      out: time(r.out),
      status: typeof r.status === 'string' ? clip(r.status, 20) : time(r.out) ? 'out' : time(r.in) ? 'in' : 'off',
      units: Number.isFinite(units) && units >= 0 ? Math.floor(units) : 0,
    };
  }
  return out;
}

/** Which of these ids (keys of a submitted grid or clock, clipped as rows are read) name staff, each read by key. */
export async function staffIds(tx: Tx, ...sources: unknown[]): Promise<Set<string>> {
  const wanted = new Set<string>();
  for (const src of sources) {
    if (src && typeof src === 'object' && !Array.isArray(src)) for (const key of Object.keys(src)) wanted.add(clip(key, 40));
  }
  const out = new Set<string>();
  for (const id of wanted) if (await tx.get(STAFF, id)) out.add(id);
  return out;
}

export interface Roster {
  grid: Grid;
  clock: Clock;
}

export async function readRoster(tx: Tx): Promise<Roster> {
  const doc = await tx.get(SHIFTS, ROSTER_ID);
  return { grid: (doc?.grid as Grid | undefined) ?? {}, clock: (doc?.clock as Clock | undefined) ?? {} };
}

export async function writeRoster(tx: Tx, roster: Roster): Promise<void> {
  await tx.put(SHIFTS, ROSTER_ID, { id: ROSTER_ID, grid: roster.grid, clock: roster.clock });
}

/** The staged draft, or null when there is none or it has expired. */
export function liveDraft(doc: Doc | null, now = Date.now()): Draft | null {
  if (!doc || typeof doc.ts !== 'number' || now - doc.ts > DRAFT_TTL_MS) return null;
  return { grid: doc.grid as Grid, diff: doc.diff as DiffEntry[], ts: doc.ts, status: 'unconfirmed' };
}

export interface Snapshot extends Doc {
  id: string;
  seq: number;
  ts: number;
  reason: string;
  grid: Grid;
}

/** Newest first, at most 20. */
export async function listHistory(tx: Tx): Promise<Snapshot[]> {
  const all = await tx.list<Snapshot>(SHIFT_HISTORY);
  all.sort((a, b) => b.ts - a.ts || b.seq - a.seq);
  return all.slice(0, HISTORY_MAX);
}

/** Push a snapshot and drop the oldest beyond 20. */
export async function pushHistory(tx: Tx, grid: Grid, reason: string): Promise<Snapshot> {
  const { n: seq, value: id } = await issueNumber(tx, SNAPSHOT_NUMBERS);
  const snap: Snapshot = { id, seq, ts: Date.now(), reason, grid };
  await tx.create(SHIFT_HISTORY, snap.id, snap);
  // A capped list is trimmed locally, never synced as deletions (docs/DESIGN.md §4).
  await tx.trimLocal(SHIFT_HISTORY, HISTORY_MAX);
  return snap;
}
