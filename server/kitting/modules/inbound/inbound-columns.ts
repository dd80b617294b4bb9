/**
 * From the rows of a file to the lines of an inbound list: the header row and the columns found by their
 * names in Japanese or English (or given by `mapping`), each IMEI normalised (full-width digits, spaces,
 * hyphens) and checked (15 digits, Luhn check digit, once per file).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { clip } from '../../../../shared/fields';
import { isValidImei } from '../../../../shared/imei';
import { INBOUND_MAX_ROWS, type InboundColumns, type InboundRowError } from '../../../../shared/api/contracts/inbound';
import { badRequest, tooLarge } from '../../../core/errors';
import type { FileRow } from './inbound-file';

export type ColumnField = 'imei' | 'serial' | 'model' | 'note';
const COLUMN_FIELDS: readonly ColumnField[] = ['imei', 'serial', 'model', 'note'];

export interface Mapping {
  imei?: string;
  serial?: string;
  model?: string;
  note?: string;
  headerRow?: number;
  sheet?: string;
}

export interface ParsedLine {
  row: number;
  imei: string;
  serial: string;
  model: string;
  note: string;
}

/** Header names of each field, compared after normalising (NFKC, lower case, no blanks or punctuation). */
const ALIASES: Record<ColumnField, string[]> = {
  imei: ['imei', 'imei1', 'imeino', 'imei番号', 'imei1番号', '端末識別番号'],
  serial: ['シリアル', 'シリアル番号', 'シリアルno', '製造番号', 'serial', 'serialno', 'serialnumber', 'sn'],
  model: ['機種', '機種名', 'モデル', 'モデル名', 'model', 'modelname'],
  note: ['備考', 'メモ', 'note', 'notes', 'remarks'],
};

const normHeader = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s_\-.:：/()（）#＃]/g, '');

/** Full-width digits to ASCII, and the spaces and hyphens people type into IMEIs removed. */
export function normalizeImei(raw: string): string {
  if (/^\d{15}$/.test(raw)) return raw;
  return raw.normalize('NFKC').replace(/[\s\u200B\uFEFF\-‐‑‒–—―−ー－ｰ]/g, '');
}

/** Column letters (A, B, …, AA) to a 0-based index; null when not letters. */
export function columnIndex(letters: string): number | null {
  const s = letters.trim().toUpperCase();
  if (!/^[A-Z]{1,3}$/.test(s)) return null;
  let n = 0;
  for (const ch of s) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function columnLetters(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

const invalidMapping = (message: string) => badRequest('invalid mapping', { message });

/** The mapping as a caller sends it: column letters, a header row 0..1000, a sheet name. */
export function readMapping(raw: unknown): Mapping {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidMapping('mapping はオブジェクトで指定してください');
  const m = raw as Record<string, unknown>;
  const out: Mapping = {};
  for (const f of COLUMN_FIELDS) {
    const v = m[f];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string' || columnIndex(v) === null) throw invalidMapping(`mapping.${f} は列の記号（A, B, … AA）で指定してください`);
    out[f] = v.trim().toUpperCase();
  }
  if (m.headerRow !== undefined && m.headerRow !== null && m.headerRow !== '') {
    const n = typeof m.headerRow === 'number' ? m.headerRow : Number(m.headerRow);
    if (!Number.isInteger(n) || n < 0 || n > 1000) throw invalidMapping('mapping.headerRow は0〜1000の行番号です（0 は見出し行なし）');
    out.headerRow = n;
  }
  if (m.sheet !== undefined && m.sheet !== null && m.sheet !== '') {
    if (typeof m.sheet !== 'string' || m.sheet.length > 100) throw invalidMapping('mapping.sheet はシート名（100文字以内）です');
    out.sheet = m.sheet;
  }
  return out;
}

/** Columns a header row names, by field (first match; IMEI before IMEI1). */
function columnsOf(cells: string[]): Partial<Record<ColumnField, number>> {
  const norm = cells.map(normHeader);
  const out: Partial<Record<ColumnField, number>> = {};
  for (const f of COLUMN_FIELDS) {
    for (const alias of ALIASES[f]) {
      const i = norm.indexOf(alias);
      if (i >= 0) {
        out[f] = i;
        break;
      }
    }
  }
  return out;
}

/** Rows searched for a header row. */
const HEADER_SEARCH = 20;

export interface Layout {
  /** Index in `rows` of the header row (-1: none). */
  headerAt: number;
  columns: Record<ColumnField, number | null> & { imei: number };
}

/** Where the header row and the columns are: found by their names, overridden by `mapping`. */
export function findLayout(rows: FileRow[], mapping: Mapping): Layout {
  let headerAt = -1;
  if (mapping.headerRow !== undefined) {
    if (mapping.headerRow > 0) {
      headerAt = rows.findIndex((r) => r.n === mapping.headerRow);
      if (headerAt < 0) throw invalidMapping(`見出し行 ${mapping.headerRow} 行目がファイルにありません`);
    }
  } else {
    headerAt = rows.slice(0, HEADER_SEARCH).findIndex((r) => columnsOf(r.cells).imei !== undefined);
  }
  const named = headerAt >= 0 ? columnsOf(rows[headerAt]?.cells ?? []) : {};
  const pick = (f: ColumnField): number | null => {
    const given = mapping[f];
    if (given !== undefined) return columnIndex(given);
    return named[f] ?? null;
  };
  const imei = pick('imei');
  if (imei === null) {
    throw badRequest('imei column not found', {
      message: 'IMEIの列が見つかりません。見出しを「IMEI」「端末識別番号」などにするか、列を指定してください（mapping.imei）',
    });
  }
  return { headerAt, columns: { imei, serial: pick('serial'), model: pick('model'), note: pick('note') } };
}

export function describeColumns(layout: Layout, rows: FileRow[]): InboundColumns {
  const c = layout.columns;
  const letter = (i: number | null) => (i === null ? null : columnLetters(i));
  return { imei: columnLetters(c.imei), serial: letter(c.serial), model: letter(c.model), note: letter(c.note), headerRow: layout.headerAt >= 0 ? (rows[layout.headerAt]?.n ?? 0) : 0 };
}

export interface Extracted {
  lines: ParsedLine[];
  errors: InboundRowError[];
  /** Data rows read (blank rows not counted). */
  total: number;
}

const cell = (r: FileRow, i: number | null) => (i === null ? '' : (r.cells[i] ?? '').trim());

/** The valid lines of the data rows (below the header) and why each other row was not taken. */
export async function extractLines(rows: FileRow[], layout: Layout): Promise<Extracted> {
  const lines: ParsedLine[] = [];
  const errors: InboundRowError[] = [];
  const seen = new Set<string>();
  const c = layout.columns;
  let total = 0;
  for (let i = layout.headerAt + 1; i < rows.length; i++) {
    const r = rows[i] as FileRow;
    if (r.cells.every((v) => v.trim() === '')) continue;
    total += 1;
    if (total > INBOUND_MAX_ROWS) throw tooLarge('too many rows', { limit: INBOUND_MAX_ROWS, message: `行数が多すぎます（上限 ${INBOUND_MAX_ROWS.toLocaleString('ja-JP')} 行）` });
    if (total % 2000 === 0) await nextTurn();
    const raw = cell(r, c.imei);
    const value = clip(raw, 60);
    const imei = normalizeImei(raw);
    if (imei === '') errors.push({ row: r.n, value, reason: 'missing' });
    else if (!/^\d{15}$/.test(imei)) errors.push({ row: r.n, value, reason: 'not_15_digits' });
    else if (!isValidImei(imei)) errors.push({ row: r.n, value, reason: 'check_digit' });
    else if (seen.has(imei)) errors.push({ row: r.n, value, reason: 'duplicate' });
    else {
      seen.add(imei);
      lines.push({ row: r.n, imei, serial: clip(cell(r, c.serial), 40), model: clip(cell(r, c.model), 60), note: clip(cell(r, c.note), 300) });
    }
  }
  return { lines, errors, total };
}
