/**
 * XLSX read directly: the ZIP's central directory gives the parts, each part is inflated in small chunks
 * (zlib, streaming) and read by a SAX parser (saxes), with a turn of the event loop between chunks. Only the
 * parts a table needs are read: the workbook (sheet names, in the order Excel shows them), its relations
 * (which part is which sheet), the shared strings and the one sheet asked for. Styles, formulas, drawings
 * and the other sheets are never inflated. Memory holds the shared strings and the rows taken, never a
 * whole inflated part; inflated sizes are capped (a ZIP bomb is refused as unreadable).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser } from 'saxes';

/** Inflated bytes of one part at most (read as it streams; a 50,000-row notice is a few tens of MB). */
const MAX_PART_BYTES = 256 * 1024 * 1024;
/** Inflated bytes of the shared strings at most (they are held in memory while the sheet is read). */
const MAX_STRINGS_BYTES = 64 * 1024 * 1024;
const CHUNK = 32 * 1024;

class XlsxError extends Error {}

interface Entry {
  name: string;
  method: number;
  size: number;
  offset: number;
}

/** The entries of a ZIP's central directory (no ZIP64: a 20 MB upload never needs it). */
function zipEntries(buf: Buffer): Map<string, Entry> {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxError('no ZIP directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = new Map<string, Entry>();
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new XlsxError('broken ZIP directory');
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new XlsxError('broken ZIP entry');
    const offset = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    entries.set(name.replace(/^\//, ''), { name, method, size, offset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The inflated text of a part, chunk by chunk, with a turn of the event loop between chunks. */
async function* partText(buf: Buffer, e: Entry, maxBytes: number): AsyncGenerator<string> {
  if (e.method !== 0 && e.method !== 8) throw new XlsxError(`unsupported compression ${e.method}`);
  const data = buf.subarray(e.offset, e.offset + e.size);
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  const take = (c: Buffer) => {
    total += c.length;
    if (total > maxBytes) throw new XlsxError('part too large');
    return decoder.decode(c, { stream: true });
  };
  if (e.method === 0) {
    for (let i = 0; i < data.length; i += CHUNK) {
      yield take(data.subarray(i, i + CHUNK));
      await nextTurn();
    }
  } else {
    const inflate = createInflateRaw({ chunkSize: CHUNK });
    const feed = (async () => {
      for (let i = 0; i < data.length; i += CHUNK) {
        if (!inflate.write(data.subarray(i, i + CHUNK))) await new Promise((r) => inflate.once('drain', r));
      }
      inflate.end();
    })();
    feed.catch(() => undefined);
    try {
      for await (const c of inflate as AsyncIterable<Buffer>) yield take(c);
    } finally {
      inflate.destroy();
    }
    await feed;
  }
  yield decoder.decode();
}

type Handler = { open?: (name: string, attrs: Record<string, string>) => void; close?: (name: string) => void; text?: (t: string) => void };
const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Run a part through the SAX parser (a handler may throw to stop reading). */
async function readPart(buf: Buffer, e: Entry, h: Handler, maxBytes = MAX_PART_BYTES): Promise<void> {
  const parser = new SaxesParser();
  const state: { failed: Error | null } = { failed: null };
  parser.on('error', (err) => {
    state.failed ??= err;
  });
  if (h.open) parser.on('opentag', (t) => h.open!(local(t.name), t.attributes as Record<string, string>));
  if (h.close) parser.on('closetag', (t) => h.close!(local(t.name)));
  if (h.text) {
    parser.on('text', h.text);
    parser.on('cdata', h.text);
  }
  for await (const s of partText(buf, e, maxBytes)) {
    if (s) parser.write(s);
    if (state.failed) throw new XlsxError(state.failed.message);
  }
  parser.close();
  if (state.failed) throw new XlsxError(state.failed.message);
}

/** Where a relation's target lies in the ZIP, from the folder of the part that names it. */
function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').filter((p) => p !== '');
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** Column number (1-based) of a cell reference such as `BC12`. */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return n;
}

/** A cell's text as the table shows it: numbers without exponent, booleans as TRUE/FALSE, errors blank. */
function cellText(type: string, raw: string, strings: string[]): string {
  switch (type) {
    case 's': {
      const i = Number(raw);
      return Number.isInteger(i) && i >= 0 && i < strings.length ? strings[i]! : '';
    }
    case 'str':
    case 'inlineStr':
      return raw;
    case 'b':
      return raw.trim() === '1' ? 'TRUE' : raw.trim() === '0' ? 'FALSE' : '';
    case 'e':
      return '';
    case 'd': {
      const d = new Date(raw);
      return Number.isNaN(d.getTime()) ? raw : d.toISOString().slice(0, 10);
    }
    default: {
      if (raw.trim() === '') return '';
      const v = Number(raw);
      if (!Number.isFinite(v)) return raw;
      return Number.isInteger(v) ? v.toFixed(0) : String(v);
    }
  }
}

export interface XlsxRow {
  n: number;
  cells: string[];
}

export interface XlsxReadResult {
  sheets: string[];
  /** The sheet read (null: no sheet of that name). */
  sheet: string | null;
}

/** Read the rows of the first sheet (or the one named) and hand each to `onRow` (which may throw to stop). */
export async function readXlsxRows(buf: Buffer, sheetName: string | undefined, onRow: (row: XlsxRow) => void): Promise<XlsxReadResult> {
  const entries = zipEntries(buf);
  const part = (name: string) => entries.get(name) ?? null;
  const readRels = async (path: string, dir: string) => {
    const found = new Map<string, { target: string; type: string }>();
    const e = part(path);
    if (e) {
      await readPart(buf, e, {
        open: (name, a) => {
          if (name === 'Relationship' && a.Id) found.set(a.Id, { target: resolveTarget(dir, a.Target ?? ''), type: a.Type ?? '' });
        },
      });
    }
    return found;
  };
  // The workbook is xl/workbook.xml in every writer seen; else the package's officeDocument relation names it.
  let wbPath = 'xl/workbook.xml';
  if (!part(wbPath)) wbPath = [...(await readRels('_rels/.rels', '')).values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? '';
  const workbook = part(wbPath);
  if (!workbook) throw new XlsxError('no workbook');
  const slash = wbPath.lastIndexOf('/');
  const wbDir = slash >= 0 ? wbPath.slice(0, slash) : '';
  const inDir = (name: string) => (wbDir ? `${wbDir}/${name}` : name);

  const sheets: { name: string; rid: string; hidden: boolean }[] = [];
  await readPart(buf, workbook, {
    open: (name, a) => {
      if (name !== 'sheet') return;
      const rid = Object.entries(a).find(([k]) => local(k) === 'id' && k !== 'sheetId')?.[1] ?? '';
      sheets.push({ name: a.name ?? '', rid, hidden: a.state === 'hidden' || a.state === 'veryHidden' });
    },
  });
  const rels = await readRels(inDir(`_rels/${wbPath.slice(slash + 1)}.rels`), wbDir);
  const names = sheets.map((s) => s.name);
  // The first sheet is the first one Excel shows (a hidden sheet is skipped unless it is the only kind there is).
  const chosen = sheetName === undefined ? (sheets.find((s) => !s.hidden) ?? sheets[0]) : sheets.find((s) => s.name === sheetName);
  if (!chosen) return { sheets: names, sheet: null };
  const sheetPart = part(rels.get(chosen.rid)?.target ?? '') ?? (sheets.indexOf(chosen) === 0 ? part(inDir('worksheets/sheet1.xml')) : null);
  if (!sheetPart) throw new XlsxError(`sheet ${chosen.name} has no part`);

  // Shared strings: each <si> is its <t> texts joined (rich text runs included, phonetic guides <rPh> left out).
  const strings: string[] = [];
  const stringsTarget = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target ?? inDir('sharedStrings.xml');
  const stringsPart = part(stringsTarget);
  if (stringsPart) {
    let cur: string[] | null = null;
    let inT = false;
    let phonetic = 0;
    await readPart(
      buf,
      stringsPart,
      {
        open: (name) => {
          if (name === 'si') cur = [];
          else if (name === 'rPh') phonetic += 1;
          else if (name === 't' && phonetic === 0) inT = true;
        },
        close: (name) => {
          if (name === 'si') {
            strings.push(cur ? cur.join('') : '');
            cur = null;
          } else if (name === 'rPh') phonetic -= 1;
          else if (name === 't') inT = false;
        },
        text: (t) => {
          if (inT && cur) cur.push(t);
        },
      },
      MAX_STRINGS_BYTES,
    );
  }

  // The sheet: <row r><c r t><v>…</v> or <is><t>…</t></is></c></row>.
  let rowN = 0;
  let cells: string[] | null = null;
  let col = 0;
  let type = '';
  let text: string[] = [];
  let inValue = false;
  let phonetic = 0;
  await readPart(buf, sheetPart, {
    open: (name, a) => {
      if (name === 'row') {
        rowN = a.r ? Number(a.r) : rowN + 1;
        cells = [];
        col = 0;
      } else if (name === 'c' && cells) {
        col = a.r ? columnOf(a.r) : col + 1;
        type = a.t ?? 'n';
        text = [];
      } else if (name === 'rPh') phonetic += 1;
      else if ((name === 'v' || (name === 't' && type === 'inlineStr')) && cells && phonetic === 0) inValue = true;
    },
    close: (name) => {
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'c' && cells && col > 0) {
        const v = cellText(type, text.join(''), strings);
        if (v !== '' && col <= 16384) {
          while (cells.length < col - 1) cells.push('');
          cells[col - 1] = v;
        }
      } else if (name === 'row' && cells) {
        onRow({ n: rowN, cells });
        cells = null;
      }
    },
    text: (t) => {
      if (inValue) text.push(t);
    },
  });
  return { sheets: names, sheet: chosen.name };
}
