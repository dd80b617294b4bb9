/**
 * Inbound lists (入荷予定): one record per list in `inbound`, one record per expected or unexpected IMEI in
 * `inboundLines`, keyed `<list id>:<imei>` so that two benches scanning the same device write the same
 * record (per-field last writer wins: received once). Counts are never stored as running totals (two benches
 * would overwrite each other's): the expected count is fixed at import, received and unexpected are counted
 * from the scanned lines. One lookup reaches a list's lines: `at` is `<list id>:open` until the line is
 * scanned and `<list id>:scanned` from then on, so the scanned lines are read without the others, and a scan
 * moves one index entry (a second lookup by list would be rewritten by every scan as well). */
import { z } from 'zod';
import { Field, textValue } from '../../../../shared/fields';
import { isValidImei } from '../../../../shared/imei';
import {
  INBOUND_LINE_STATES,
  INBOUND_MAX_ROWS,
  INBOUND_STATUSES,
  type Inbound,
  type InboundCounts,
  type InboundLine,
} from '../../../../shared/api/contracts/inbound';
import { collectionSchema, derivedInt, derivedKey, derivedText, ruleFields, stamp } from '../../http/collection-schema';
import { required } from '../../../core/errors';
import { declareLookup } from '../../store/lookups';
import { declareSeries, padNumber } from '../../store/series';
import type { Doc, Store, Tx } from '../../store/types';

export const INBOUND = 'inbound';
export const INBOUND_LINES = 'inboundLines';

/** The not yet scanned and the scanned lines of a list (received or unexpected), by `at`. */
declareLookup(INBOUND_LINES, 'at');
export const atOpen = (list: string) => `${list}:open`;
export const atScanned = (list: string) => `${list}:scanned`;

/** IB-26-0001: numbered per calendar year (Japan time), never refused offline (leased blocks, then a reserve). */
export const INBOUND_NUMBERS = declareSeries({
  name: 'inbound',
  period: 'yy',
  coll: INBOUND,
  field: 'no',
  keyed: false,
  format: (n, yy) => `IB-${yy}-${padNumber(n, 4)}`,
  pattern: /^IB-(?<p>\d{2})-(?<n>\d{4,})$/,
  reserve: 200,
});

/** The routes that take a file, and their JSON body limit (20 MB as base64 is 26.7 MB). */
export const INBOUND_UPLOAD_PATHS = ['/api/inbound', '/api/inbound/preview'];
export const INBOUND_BODY_LIMIT = '28mb';

export const lineId = (list: string, imei: string) => `${list}:${imei}`;

/** Fields of a list as the create route stores them from a request. */
export const inboundRules = {
  name: (v: unknown): string => required(textValue(v, 120), 'name required', '名称(name)は必須です'),
  cust: (v: unknown): string => required(textValue(v, 60), 'cust required', '顧客(cust)は必須です'),
  filename: (v: unknown): string => textValue(v, 200),
};

export const inboundSchema = collectionSchema(INBOUND, ruleFields(inboundRules), {
  no: new Field(z.string().regex(INBOUND_NUMBERS.pattern, 'must be an inbound number IB-YY-NNNN')),
  status: new Field(z.enum(INBOUND_STATUSES)),
  expected: derivedInt(0, INBOUND_MAX_ROWS),
  createdAt: stamp(),
  createdBy: derivedText(160),
  closedAt: stamp(),
  closedBy: derivedText(160),
  ts: stamp(),
});

const imeiField = new Field(z.string().refine(isValidImei, 'must be a 15-digit IMEI with its check digit'));

/** A line is keyed by its list and IMEI; every field is written by the import and scan routes. */
export const inboundLineSchema = derivedKey(
  collectionSchema(INBOUND_LINES, {}, {
    list: derivedText(80),
    imei: imeiField,
    serial: derivedText(40),
    model: derivedText(60),
    note: derivedText(300),
    row: derivedInt(0, 10_000_000),
    state: new Field(z.enum(INBOUND_LINE_STATES)),
    at: derivedText(90),
    /** Earlier releases' scan marker (the list id); still accepted from benches not yet upgraded. */
    hit: derivedText(80),
    scannedAt: stamp(),
    scannedBy: derivedText(160),
    device: derivedText(40),
  }),
  (id, f) => {
    if (typeof f.list === 'string' && !id.startsWith(`${f.list}:`)) return 'a line is keyed <list>:<imei>';
    if (typeof f.imei === 'string' && !id.endsWith(`:${f.imei}`)) return 'a line is keyed <list>:<imei>';
    if (typeof f.at === 'string') {
      const list = id.slice(0, id.lastIndexOf(':'));
      if (f.at !== atOpen(list) && f.at !== atScanned(list)) return 'a line is found at <list>:open or <list>:scanned';
    }
    if (!/^[^:]{1,80}:\d{15}$/.test(id)) return 'a line is keyed <list>:<imei>';
    return null;
  },
);

export const inboundSchemas = [inboundSchema, inboundLineSchema];

type Reader = Pick<Store, 'find'> | Pick<Tx, 'find'>;

async function findLines(r: Reader, ws: string | null, at: string): Promise<Doc[]> {
  return ws === null ? (r as Pick<Tx, 'find'>).find(INBOUND_LINES, 'at', at) : (r as Pick<Store, 'find'>).find(ws, INBOUND_LINES, 'at', at);
}

/** The scanned lines of a list (received or unexpected). */
export const scannedLines = (r: Reader, ws: string | null, listId: string) => findLines(r, ws, atScanned(listId));

/** Every line record of a list, scanned or not. */
export async function lineDocs(r: Reader, ws: string | null, listId: string): Promise<Doc[]> {
  return [...(await findLines(r, ws, atOpen(listId))), ...(await scannedLines(r, ws, listId))];
}

/** Counts of a list: expected from the import, received and unexpected from its scanned lines. */
function countsOf(list: Doc, scanned: Doc[]): InboundCounts {
  const expected = typeof list.expected === 'number' ? list.expected : 0;
  let received = 0;
  let unexpected = 0;
  for (const l of scanned) {
    if (l.state === 'received') received += 1;
    else if (l.state === 'unexpected') unexpected += 1;
  }
  return { expected, received, unexpected, missing: Math.max(0, expected - received) };
}

/** The list as the routes answer it. */
function inboundView(list: Doc, counts: InboundCounts): Inbound {
  return {
    id: String(list.id),
    no: String(list.no ?? ''),
    name: String(list.name ?? ''),
    cust: String(list.cust ?? ''),
    filename: String(list.filename ?? ''),
    createdAt: typeof list.createdAt === 'number' ? list.createdAt : 0,
    createdBy: String(list.createdBy ?? ''),
    status: list.status === 'closed' ? 'closed' : 'open',
    closedAt: typeof list.closedAt === 'number' ? list.closedAt : null,
    closedBy: String(list.closedBy ?? ''),
    counts,
  };
}

export function lineView(l: Doc): InboundLine {
  const state = (INBOUND_LINE_STATES as readonly string[]).includes(String(l.state)) ? (l.state as InboundLine['state']) : 'expected';
  return {
    imei: String(l.imei ?? ''),
    serial: String(l.serial ?? ''),
    model: String(l.model ?? ''),
    note: String(l.note ?? ''),
    state,
    // 0: not scanned (an imported line holds the scan's fields blank, see UNSCANNED in inbound-import.ts).
    scannedAt: typeof l.scannedAt === 'number' && l.scannedAt > 0 ? l.scannedAt : null,
    device: typeof l.device === 'string' && l.device !== '' ? l.device : null,
    row: typeof l.row === 'number' ? l.row : null,
  };
}

/** A list with its counts, read from the store (or a transaction: ws null). */
export async function withCounts(r: Reader, ws: string | null, list: Doc): Promise<Inbound> {
  return inboundView(list, countsOf(list, await scannedLines(r, ws, String(list.id))));
}

/** Every line of a list: expected ones in file order, then the unexpected ones as scanned. */
export async function linesOf(store: Store, ws: string, listId: string): Promise<InboundLine[]> {
  const lines = (await lineDocs(store, ws, listId)).map(lineView);
  const late = (l: InboundLine) => (l.state === 'unexpected' ? 1 : 0);
  return lines.sort((a, b) => late(a) - late(b) || (late(a) ? (a.scannedAt ?? 0) - (b.scannedAt ?? 0) : (a.row ?? 0) - (b.row ?? 0)));
}

/** What close answers and the report shows: received count, the missing and the unexpected lines. */
export function reportOf(lines: InboundLine[]): { received: number; missing: InboundLine[]; unexpected: InboundLine[] } {
  return {
    received: lines.filter((l) => l.state === 'received').length,
    missing: lines.filter((l) => l.state === 'expected'),
    unexpected: lines.filter((l) => l.state === 'unexpected'),
  };
}
