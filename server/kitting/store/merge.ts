/** Per-field last-writer-wins merge of changes and whole records into a record's state (pure). */
import type { Doc, WireChange, WireRecord } from './types';

export interface RowState {
  data: Doc;
  stamps: Record<string, string>;
  deleted: boolean;
  /** Highest stamp of the record. */
  hlc: string;
}

/** Merge one change; null when no field won, else the new state and the fields that won. */
export function mergeChange(row: RowState | null, c: WireChange): { row: RowState; won: Doc } | null {
  const data: Doc = row ? { ...row.data } : {};
  const stamps: Record<string, string> = row ? { ...row.stamps } : {};
  let deleted = row ? row.deleted : false;
  const won: Doc = {};
  let any = false;
  for (const [k, v] of Object.entries(c.fields)) {
    const cur = stamps[k];
    if (cur !== undefined && cur >= c.hlc) continue;
    stamps[k] = c.hlc;
    won[k] = v;
    any = true;
    if (k === '_deleted') deleted = v === true;
    else if (v === null || v === undefined) delete data[k];
    else data[k] = v;
  }
  if (!any) return null;
  const hlc = row && row.hlc > c.hlc ? row.hlc : c.hlc;
  return { row: { data, stamps, deleted, hlc }, won };
}

/** Merge a whole record (snapshot); null when no field won. */
export function mergeRecord(row: RowState | null, r: WireRecord): RowState | null {
  if (!row) {
    let hlc = '';
    for (const s of Object.values(r.stamps)) if (s > hlc) hlc = s;
    return { data: { ...r.data }, stamps: { ...r.stamps }, deleted: r.deleted, hlc };
  }
  const data = { ...row.data };
  const stamps = { ...row.stamps };
  let deleted = row.deleted;
  let hlc = row.hlc;
  let any = false;
  for (const [k, s] of Object.entries(r.stamps)) {
    const cur = stamps[k];
    if (cur !== undefined && cur >= s) continue;
    stamps[k] = s;
    any = true;
    if (s > hlc) hlc = s;
    if (k === '_deleted') deleted = r.deleted;
    else if (r.data[k] === undefined || r.data[k] === null) delete data[k];
    else data[k] = r.data[k];
  }
  return any ? { data, stamps, deleted, hlc } : null;
}

/** A record's fields grouped by stamp, oldest first: the changes that rebuild it on another replica. */
export function changesOfRecord(row: RowState): { hlc: string; fields: Doc }[] {
  const groups = new Map<string, Doc>();
  for (const [k, s] of Object.entries(row.stamps)) {
    const g = groups.get(s) ?? {};
    g[k] = k === '_deleted' ? row.deleted : (row.data[k] ?? null);
    groups.set(s, g);
  }
  return [...groups.keys()].sort().map((hlc) => ({ hlc, fields: groups.get(hlc) as Doc }));
}

/**
 * Same value as stored (a field written again with an equal value is not a change). Two strings, two finite
 * numbers or two booleans are compared directly (their JSON is equal exactly when they are); anything else
 * by its JSON.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const t = typeof a;
  if (t === typeof b && (t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(a) && Number.isFinite(b)))) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A record as a local write finds it (null when it was never written). */
export interface StoredRow {
  data: Doc;
  stamps: Record<string, string>;
  deleted: boolean;
}

/**
 * A local whole-record write (Tx.put) under stamp `hlc`: the fields that change (null = removed,
 * `_deleted: false` = re-created) and the record's new stamps; null when nothing changes. A re-created
 * record also drops the fields of its tombstoned past, so every replica ends up with exactly `doc`.
 */
export function stampPut(row: StoredRow | null, doc: Doc, hlc: string): { stamps: Record<string, string>; changed: Doc } | null {
  const alive = row !== null && !row.deleted;
  const old: Doc = row ? row.data : {};
  const stamps: Record<string, string> = row ? { ...row.stamps } : {};
  const changed: Doc = {};
  for (const [k, v] of Object.entries(doc)) {
    if (v === undefined) continue;
    if (!alive || !sameValue(old[k], v)) {
      changed[k] = v;
      stamps[k] = hlc;
    }
  }
  for (const k of Object.keys(old)) {
    if (!(k in doc) || doc[k] === undefined) {
      changed[k] = null;
      stamps[k] = hlc;
    }
  }
  if (row && row.deleted) {
    changed._deleted = false;
    stamps._deleted = hlc;
  }
  return Object.keys(changed).length > 0 ? { stamps, changed } : null;
}

/**
 * A local merge of fields into a live record (Tx.patch) under stamp `hlc`: its new data and stamps and
 * the fields that changed; null when none did. `row.data` is not modified.
 */
export function stampPatch(row: StoredRow, fields: Doc, hlc: string): { data: Doc; stamps: Record<string, string>; changed: Doc } | null {
  const data: Doc = { ...row.data };
  const stamps: Record<string, string> = { ...row.stamps };
  const changed: Doc = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || sameValue(data[k], v)) continue;
    data[k] = v;
    changed[k] = v;
    stamps[k] = hlc;
  }
  return Object.keys(changed).length > 0 ? { data, stamps, changed } : null;
}
