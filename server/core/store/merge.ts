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
