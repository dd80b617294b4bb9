import { certDigest, type CertData } from '../modules/certs/certs.service';
import type { Doc, Rewrite, Store, WireRecord } from '../store/types';

/**
 * Every record field that carries a number of a sequential series (tx.next in server/modules), in
 * one table: what a bench renumbers when central issued the same numbers while the bench worked
 * unenrolled. Collection and series names are those of the modules (numbered.test.ts checks them).
 */
export interface NumberedField {
  coll: string;
  /** Field holding the number ('id', 'no', 'asset', 'seq'). */
  field: string;
  /** The record's key is the field's value (devices are keyed by IMEI: false). */
  keyed: boolean;
  /** The whole value; named groups: n = the number, p = the period of a periodic series. */
  pattern: RegExp;
  series: (m: RegExpExecArray) => string;
  format: (n: number, m: RegExpExecArray) => string | number;
  /** Other fields of the record that follow the new number. */
  follow?: (doc: Doc, before: string, after: string, oldN: number, newN: number) => Doc;
  /** Fields of other collections holding this record's key. */
  references?: { coll: string; field: string }[];
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const num = (m: RegExpExecArray) => Number(m.groups?.n);
const period = (m: RegExpExecArray) => m.groups?.p ?? '';
const mirror = (field: string) => (doc: Doc, before: string, after: string) => (doc[field] === before ? { [field]: after } : {});
const seq = (doc: Doc, _b: string, _a: string, oldN: number, newN: number) => (doc.seq === oldN ? { seq: newN } : {});

/** An erasure certificate keeps the number a PDF printed before enrolment shows, and its digest follows the new number. */
function certFollow(doc: Doc, before: string, after: string): Doc {
  const out: Doc = { formerNo: typeof doc.formerNo === 'string' && doc.formerNo !== '' ? doc.formerNo : before };
  const issuer = doc.issuer as Doc | undefined;
  if (typeof doc.digest === 'string' && issuer && typeof issuer === 'object' && Array.isArray(doc.devices)) {
    out.formerDigest = typeof doc.formerDigest === 'string' ? doc.formerDigest : doc.digest;
    out.digest = certDigest({ ...(doc as CertData), no: after });
  }
  return out;
}

/** The generated serial of a device ends with its asset number (PXL-000179). */
function serialFollow(doc: Doc, _b: string, _a: string, oldN: number, newN: number): Doc {
  const serial = typeof doc.serial === 'string' ? doc.serial : '';
  const tail = `-${pad(oldN, 6)}`;
  return serial.endsWith(tail) ? { serial: `${serial.slice(0, -tail.length)}-${pad(newN, 6)}` } : {};
}

export const NUMBERED: NumberedField[] = [
  { coll: 'shipments', field: 'id', keyed: true, pattern: /^SHP-(?<n>\d{4,})$/, series: () => 'shipment', format: (n) => `SHP-${pad(n, 4)}` },
  {
    coll: 'tickets',
    field: 'id',
    keyed: true,
    pattern: /^TK-0(?<n>\d+)$/,
    series: () => 'ticket',
    format: (n) => `TK-0${n}`,
    references: [{ coll: 'ticketMessages', field: 'ticketId' }],
  },
  { coll: 'inquiries', field: 'id', keyed: true, pattern: /^(?<n>\d{5,})$/, series: () => 'inquiry', format: (n) => pad(n, 5), follow: mirror('inquiryId') },
  {
    coll: 'invoices',
    field: 'id',
    keyed: true,
    pattern: /^INV-(?<p>\d{4})-(?<n>\d{3,})$/,
    series: (m) => `invoice:${period(m)}`,
    format: (n, m) => `INV-${period(m)}-${pad(n, 3)}`,
  },
  {
    coll: 'erasureCerts',
    field: 'no',
    keyed: true,
    pattern: /^KIT-ERZ-(?<p>\d{4})-(?<n>\d{4,})$/,
    series: (m) => `erz:${period(m)}`,
    format: (n, m) => `KIT-ERZ-${period(m)}-${pad(n, 4)}`,
    follow: certFollow,
  },
  { coll: 'capacityLoad', field: 'id', keyed: true, pattern: /^CAP-(?<n>\d{4,})$/, series: () => 'cap', format: (n) => `CAP-${pad(n, 4)}` },
  { coll: 'dockReservations', field: 'id', keyed: true, pattern: /^RV-(?<n>\d{4,})$/, series: () => 'dock', format: (n) => `RV-${pad(n, 4)}` },
  { coll: 'syncLog', field: 'id', keyed: true, pattern: /^LOG-(?<n>\d{4,})$/, series: () => 'synclog', format: (n) => `LOG-${pad(n, 4)}`, follow: seq },
  { coll: 'auditLog', field: 'id', keyed: true, pattern: /^al-(?<n>\d{4,})$/, series: () => 'audit', format: (n) => `al-${pad(n, 4)}`, follow: seq },
  { coll: 'shiftHistory', field: 'id', keyed: true, pattern: /^snap-(?<n>\d{5,})$/, series: () => 'shiftHistory', format: (n) => `snap-${pad(n, 5)}`, follow: seq },
  {
    coll: 'storeOrders',
    field: 'id',
    keyed: true,
    pattern: /^AO-(?<p>\d{6})-(?<n>\d{4,})$/,
    series: (m) => `store-order:${period(m)}`,
    format: (n, m) => `AO-${period(m)}-${pad(n, 4)}`,
  },
  {
    coll: 'buybackReceipts',
    field: 'no',
    keyed: true,
    pattern: /^KIT-BUY-(?<p>\d{4})-(?<n>\d{4,})$/,
    series: (m) => `buyback-receipt:${period(m)}`,
    format: (n, m) => `KIT-BUY-${period(m)}-${pad(n, 4)}`,
    follow: mirror('id'),
  },
  {
    coll: 'quotes',
    field: 'id',
    keyed: true,
    pattern: /^Q-(?<p>\d{4})-(?<n>\d{3,})$/,
    series: (m) => `quote:${period(m)}`,
    format: (n, m) => `Q-${period(m)}-${pad(n, 3)}`,
  },
  { coll: 'devices', field: 'asset', keyed: false, pattern: /^HK-26-(?<n>\d+)$/, series: () => 'asset', format: (n) => `HK-26-${n}`, follow: serialFollow },
  { coll: 'networkDeals', field: 'seq', keyed: false, pattern: /^(?<n>\d+)$/, series: () => 'networkDeal', format: (n) => n },
];

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
export function planRenumbering(records: WireRecord[], shifts: Record<string, SeriesShift>, table: NumberedField[] = NUMBERED): Rewrite[] {
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
      const shift = shifts[t.series(m)];
      const n = num(m);
      if (!shift || !(n > shift.base && n <= shift.level)) continue;
      const newN = n + shift.offset;
      const value = t.format(newN, m);
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
    plan: (records) => planRenumbering(records, shifts),
    meta: { [renumberedKey(ws)]: JSON.stringify(shifts) },
  });
}
