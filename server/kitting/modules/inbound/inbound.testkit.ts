/** Shipping notice files for the inbound tests and benchmark: valid IMEIs, CSV in either encoding, XLSX. */
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { luhnCheckDigit } from '../../../../shared/imei';

/** The i-th test IMEI (TAC 35209900, a serial from i, its check digit). */
export function testImei(i: number, tac = '35209900'): string {
  const body = `${tac}${String(i).padStart(6, '0')}`;
  return body + String(luhnCheckDigit(body));
}

function csvText(rows: (string | number)[][], delimiter = ','): string {
  const cell = (v: string | number) => {
    const s = String(v);
    return s.includes(delimiter) || s.includes('"') || s.includes('\n') ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return rows.map((r) => r.map(cell).join(delimiter)).join('\r\n') + '\r\n';
}

export function csvFile(rows: (string | number)[][], opts: { delimiter?: string; encoding?: 'utf-8' | 'utf-8-bom' | 'shift_jis' } = {}): Buffer {
  const text = csvText(rows, opts.delimiter);
  if (opts.encoding === 'shift_jis') return iconv.encode(text, 'cp932');
  return Buffer.from((opts.encoding === 'utf-8-bom' ? '\uFEFF' : '') + text, 'utf8');
}

export async function xlsxFile(sheets: { name: string; rows: (string | number)[][] }[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name);
    for (const r of s.rows) ws.addRow(r);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A notice of n devices: header row in Japanese, model and serial per row. */
export function noticeRows(n: number, start = 0): (string | number)[][] {
  const rows: (string | number)[][] = [['No', '機種', 'IMEI', 'シリアル', '備考']];
  for (let i = 0; i < n; i++) rows.push([i + 1, i % 2 ? 'iPhone 15' : 'Galaxy S24', testImei(start + i), `SN${String(start + i).padStart(6, '0')}`, '']);
  return rows;
}

export const b64 = (buf: Buffer) => buf.toString('base64');
