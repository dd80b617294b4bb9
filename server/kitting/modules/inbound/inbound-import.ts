/**
 * Import of a shipping notice: the uploaded file (base64, size checked before it is decoded), its rows, the
 * lines found in them, and storing a new list. Lines are written in batches with a turn of the event loop
 * between them; the list record comes last, so a list is visible only once all its lines are stored.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Request } from 'express';
import { INBOUND_MAX_BYTES, INBOUND_MAX_ERRORS, type InboundColumns, type InboundRowError } from '../../../../shared/api/contracts/inbound';
import { textValue } from '../../../../shared/fields';
import { randomKey } from '../../../core/ids';
import { badRequest, tooLarge } from '../../../core/errors';
import { actorOf } from '../../security/auth';
import { issueNumber } from '../../store/series';
import type { Doc, Store } from '../../store/types';
import { readFileTable, type FileTable } from './inbound-file';
import { describeColumns, extractLines, findLayout, type Extracted, type Layout, type Mapping } from './inbound-columns';
import { INBOUND, INBOUND_LINES, INBOUND_NUMBERS, lineId, atOpen } from './inbound.service';

/** The decoded file of a request: base64 (a data: URL prefix is allowed), at most INBOUND_MAX_BYTES. */
export function readUpload(raw: unknown): Buffer {
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('file required', { message: 'ファイル(file)をBase64で指定してください' });
  const b64 = raw.startsWith('data:') ? raw.slice(raw.indexOf(',') + 1) : raw;
  const tooBig = () => tooLarge('file too large', { limit: INBOUND_MAX_BYTES, message: `ファイルが大きすぎます（上限 ${INBOUND_MAX_BYTES / 1024 / 1024} MB）` });
  if (b64.length > Math.ceil(INBOUND_MAX_BYTES / 3) * 4 + 4) throw tooBig();
  if (!/^[A-Za-z0-9+/=\r\n_-]*$/.test(b64.slice(0, 4096))) throw badRequest('invalid file', { message: 'ファイル(file)はBase64で指定してください' });
  const buf = Buffer.from(b64, 'base64');
  if (buf.length === 0) throw badRequest('file required', { message: 'ファイルが空です' });
  if (buf.length > INBOUND_MAX_BYTES) throw tooBig();
  return buf;
}

export interface Analysis {
  table: FileTable;
  layout: Layout;
  columns: InboundColumns;
  extracted: Extracted;
}

export async function analyse(buf: Buffer, mapping: Mapping): Promise<Analysis> {
  const table = await readFileTable(buf, mapping.sheet);
  const layout = findLayout(table.rows, mapping);
  const extracted = await extractLines(table.rows, layout);
  return { table, layout, columns: describeColumns(layout, table.rows), extracted };
}

/** The row errors an answer lists (the first INBOUND_MAX_ERRORS) and how many there are. */
export const listedErrors = (errors: InboundRowError[]) => ({ errors: errors.slice(0, INBOUND_MAX_ERRORS), errorCount: errors.length });

/** Who is acting, as a report names them: the member's address, else the bench or workspace. */
export function actorName(req: Request, given?: unknown): string {
  const named = textValue(given, 60);
  if (named) return named;
  const a = actorOf(req);
  if (a.kind === 'member') return a.email ?? 'メンバー';
  if (a.kind === 'local') return '作業台の担当者';
  return 'ワークスペースの利用者';
}

const LINES_PER_TX = 250;

/**
 * The fields a scan sets, present (blank) from the import on: a scan then rewrites values of a line whose
 * fields and stamps already exist, so the row hardly grows and its densely packed table page is not split
 * (a line that gained four fields and their stamps split a page on most scans: perf/inbound.bench.ts).
 */
const UNSCANNED = { scannedAt: 0, scannedBy: '', device: '' } as const;

/** Store the lines, then the list (numbered IB-YY-NNNN in the same transaction). */
export async function storeList(store: Store, ws: string, base: { name: string; cust: string; filename: string; createdBy: string }, a: Analysis): Promise<Doc> {
  const id = randomKey('ib-', 4);
  const lines = a.extracted.lines;
  for (let i = 0; i < lines.length; i += LINES_PER_TX) {
    const batch = lines.slice(i, i + LINES_PER_TX);
    await store.transact(ws, async (tx) => {
      for (const l of batch) {
        const key = lineId(id, l.imei);
        await tx.create(INBOUND_LINES, key, { id: key, list: id, imei: l.imei, serial: l.serial, model: l.model, note: l.note, row: l.row, state: 'expected', at: atOpen(id), ...UNSCANNED });
      }
    });
    await nextTurn();
  }
  return store.transact(ws, async (tx) => {
    const now = Date.now();
    const period = INBOUND_NUMBERS.periodAt(now);
    const no = (await issueNumber(tx, INBOUND_NUMBERS, period)).value;
    return tx.create(INBOUND, id, { id, no, ...base, status: 'open', expected: lines.length, createdAt: now, ts: now });
  });
}
