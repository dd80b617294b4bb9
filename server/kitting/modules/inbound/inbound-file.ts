/**
 * Reading a shipping notice file into rows of text cells: CSV (UTF-8 with or without BOM, or Shift_JIS/CP932
 * as Japanese Excel writes it, told apart by content; comma, tab or semicolon; quoted fields) through
 * csv-parse, XLSX (the first sheet or a named one) read directly (`inbound-xlsx.ts`: ZIP directory, streaming
 * inflate, SAX). Both are fed in small chunks with a turn of the event loop between them, so a 20 MB file never holds the server for long.
 */
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { INBOUND_MAX_BYTES, INBOUND_MAX_ROWS } from '../../../../shared/api/contracts/inbound';
import { badRequest, DomainError, tooLarge } from '../../../core/errors';
import { readXlsxRows } from './inbound-xlsx';

export interface FileRow {
  /** Row number in the file as a spreadsheet shows it (1-based). */
  n: number;
  cells: string[];
}

export interface FileTable {
  kind: 'csv' | 'xlsx';
  encoding: 'utf-8' | 'shift_jis' | null;
  delimiter: string | null;
  sheet: string | null;
  rows: FileRow[];
}

/** Bytes handed to a parser at a time: each chunk is parsed in one go, so this bounds the event-loop stall. */
const CHUNK = 32 * 1024;
/** Rows read between two turns of the event loop. */
const ROWS_PER_TURN = 1000;
/** Header rows and blank lines a file may have on top of its data rows. */
const ROW_SLACK = 100;

function* chunks(buf: Buffer): Generator<Buffer> {
  for (let i = 0; i < buf.length; i += CHUNK) yield buf.subarray(i, i + CHUNK);
}

const tooManyRows = () => tooLarge('too many rows', { limit: INBOUND_MAX_ROWS, message: `行数が多すぎます（上限 ${INBOUND_MAX_ROWS.toLocaleString('ja-JP')} 行）` });

/** ZIP (XLSX), the old binary Excel format, or text. */
function sniff(buf: Buffer): 'xlsx' | 'xls' | 'csv' {
  if (buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04) return 'xlsx';
  if (buf.length >= 4 && buf[0] === 0xd0 && buf[1] === 0xcf && buf[2] === 0x11 && buf[3] === 0xe0) return 'xls';
  return 'csv';
}

/** UTF-8 (a BOM, or every byte sequence valid UTF-8), else Shift_JIS/CP932. Checked chunk by chunk. */
async function detectEncoding(buf: Buffer): Promise<'utf-8' | 'shift_jis'> {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8';
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (const c of chunks(buf)) {
      decoder.decode(c, { stream: true });
      await nextTurn();
    }
    decoder.decode();
    return 'utf-8';
  } catch {
    return 'shift_jis';
  }
}

async function* decoded(buf: Buffer, encoding: 'utf-8' | 'shift_jis'): AsyncGenerator<string> {
  const body = encoding === 'utf-8' && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  const decoder = iconv.getDecoder(encoding === 'utf-8' ? 'utf8' : 'cp932');
  for (const c of chunks(body)) {
    const s = decoder.write(c);
    if (s) yield s;
    await nextTurn();
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

const DELIMITERS = [',', '\t', ';'] as const;

/** The delimiter of the first lines: the candidate found on most lines (outside quotes), then most often; comma by default. */
export function detectDelimiter(head: string): string {
  const lines = head.split(/\r?\n/).filter((l) => l.trim() !== '').slice(0, 20);
  let best: string = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    let onLines = 0;
    let total = 0;
    for (const line of lines) {
      let inQuote = false;
      let n = 0;
      for (const ch of line) {
        if (ch === '"') inQuote = !inQuote;
        else if (ch === d && !inQuote) n += 1;
      }
      if (n > 0) onLines += 1;
      total += n;
    }
    const score = onLines * 100_000 + total;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

async function readCsv(buf: Buffer): Promise<FileTable> {
  const encoding = await detectEncoding(buf);
  const headBytes = buf.subarray(0, 64 * 1024);
  const head = iconv.decode(headBytes, encoding === 'utf-8' ? 'utf8' : 'cp932');
  const delimiter = detectDelimiter(head.replace(/^\uFEFF/, ''));
  const parser = Readable.from(decoded(buf, encoding)).pipe(
    parse({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true, bom: true }),
  );
  const rows: FileRow[] = [];
  try {
    for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is the line a record ends on: a quoted field's line breaks move its first line up.
      let breaks = 0;
      for (const c of rec.record) if (c && (c.includes('\n') || c.includes('\r'))) breaks += c.split(/\r\n|\r|\n/).length - 1;
      rows.push({ n: rec.info.lines - breaks, cells: rec.record.map((c) => c ?? '') });
      if (rows.length > INBOUND_MAX_ROWS + ROW_SLACK) throw tooManyRows();
      if (rows.length % ROWS_PER_TURN === 0) await nextTurn();
    }
  } catch (err) {
    parser.destroy();
    if (err instanceof Error && 'code' in err && typeof err.code === 'string' && err.code.startsWith('CSV_')) {
      throw badRequest('unreadable file', { message: `CSVを読み取れませんでした（${err.message.slice(0, 200)}）` });
    }
    throw err;
  }
  return { kind: 'csv', encoding, delimiter, sheet: null, rows };
}

/** Cells an XLSX table may hold (the rows are capped separately). */
const XLSX_MAX_CELLS = 1_000_000;

async function readXlsx(buf: Buffer, sheetName: string | undefined): Promise<FileTable> {
  const rows: FileRow[] = [];
  let cells = 0;
  let read;
  try {
    read = await readXlsxRows(buf, sheetName, (row) => {
      rows.push(row);
      cells += row.cells.length;
      if (rows.length > INBOUND_MAX_ROWS + ROW_SLACK) throw tooManyRows();
      // A small ZIP can inflate to very wide rows: the cells kept are bounded too (20 columns a row at the row limit).
      if (cells > XLSX_MAX_CELLS) throw tooLarge('file too large', { limit: INBOUND_MAX_BYTES, message: `セルが多すぎます（上限 ${XLSX_MAX_CELLS.toLocaleString('ja-JP')} セル）` });
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw badRequest('unreadable file', { message: `Excelファイルを読み取れませんでした（${err instanceof Error ? err.message.slice(0, 200) : 'unknown'}）` });
  }
  if (read.sheet === null) {
    const seen = read.sheets;
    throw badRequest('sheet not found', { sheets: seen, message: sheetName ? `シート「${sheetName}」が見つかりません（${seen.join('、') || 'シートなし'}）` : 'シートがありません' });
  }
  return { kind: 'xlsx', encoding: null, delimiter: null, sheet: read.sheet, rows };
}

/** The rows of a CSV or XLSX file (an old .xls is refused with a hint). */
export async function readFileTable(buf: Buffer, sheet?: string): Promise<FileTable> {
  const kind = sniff(buf);
  if (kind === 'xls') throw badRequest('unsupported file', { message: '旧形式のExcel（.xls）は読み込めません。.xlsx または CSV で保存し直してください' });
  return kind === 'xlsx' ? readXlsx(buf, sheet) : readCsv(buf);
}
