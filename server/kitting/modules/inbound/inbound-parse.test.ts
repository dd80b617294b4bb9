import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../core/errors';
import { analyse } from './inbound-import';
import { columnIndex, columnLetters, normalizeImei, readMapping } from './inbound-columns';
import { detectDelimiter } from './inbound-file';
import { csvFile, testImei, xlsxFile } from './inbound.testkit';

const A = testImei(1);
const B = testImei(2);
const C = testImei(3);

async function errorOf(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('reading a CSV shipping notice', () => {
  const rows = [
    ['機種', 'IMEI', 'シリアル', '備考'],
    ['iPhone 15', A, 'F2LX001', '初期不良交換'],
    ['Galaxy S24, 256GB', B, 'R5CW002', ''],
  ];

  for (const encoding of ['utf-8', 'utf-8-bom', 'shift_jis'] as const) {
    for (const delimiter of [',', '\t', ';']) {
      it(`reads ${encoding} separated by ${JSON.stringify(delimiter)} with Japanese headers`, async () => {
        const a = await analyse(csvFile(rows, { encoding, delimiter }), {});
        expect(a.table.kind).toBe('csv');
        expect(a.table.encoding).toBe(encoding === 'shift_jis' ? 'shift_jis' : 'utf-8');
        expect(a.table.delimiter).toBe(delimiter);
        expect(a.columns).toEqual({ imei: 'B', serial: 'C', model: 'A', note: 'D', headerRow: 1 });
        expect(a.extracted.lines).toEqual([
          { row: 2, imei: A, serial: 'F2LX001', model: 'iPhone 15', note: '初期不良交換' },
          { row: 3, imei: B, serial: 'R5CW002', model: 'Galaxy S24, 256GB', note: '' },
        ]);
        expect(a.extracted.errors).toEqual([]);
      });
    }
  }

  it('finds English headers below a title block, and quoted fields with line breaks', async () => {
    const text = `"Advance shipping notice",,\r\nShipped 2026-11-20,,\r\nModel,Serial Number,IMEI1,Notes\r\n"Pixel 9","S1","${A}","two\r\nlines"\r\n`;
    const a = await analyse(Buffer.from(text), {});
    expect(a.columns).toEqual({ imei: 'C', serial: 'B', model: 'A', note: 'D', headerRow: 3 });
    expect(a.extracted.lines).toEqual([{ row: 5, imei: A, serial: 'S1', model: 'Pixel 9', note: 'two\r\nlines' }]);
  });

  it('reads 端末識別番号 / 製造番号 / モデル headers', async () => {
    const a = await analyse(csvFile([['モデル', '製造番号', '端末識別番号'], ['AQUOS sense8', 'X1', A]], { encoding: 'shift_jis' }), {});
    expect(a.extracted.lines).toEqual([{ row: 2, imei: A, serial: 'X1', model: 'AQUOS sense8', note: '' }]);
  });

  it('normalises full-width digits, spaces and hyphens in IMEIs', async () => {
    const wide = A.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
    const spaced = `${B.slice(0, 2)} ${B.slice(2, 8)}-${B.slice(8, 14)}－${B.slice(14)}`;
    const a = await analyse(csvFile([['IMEI'], [wide], [spaced], [` ${C} `]], { encoding: 'shift_jis' }), {});
    expect(a.extracted.lines.map((l) => l.imei)).toEqual([A, B, C]);
    expect(normalizeImei('３５ ２０９９-００')).toBe('352099' + '00');
  });

  it('refuses bad rows with their row numbers and reasons, and keeps the valid ones', async () => {
    const badCheck = A.slice(0, 14) + String((Number(A[14]) + 1) % 10);
    const a = await analyse(
      csvFile([['IMEI', '機種'], [A, 'x'], ['12345', 'y'], [badCheck, 'z'], ['', 'footer'], [A, 'again'], [], [B, 'w']]),
      {},
    );
    expect(a.extracted.lines.map((l) => [l.row, l.imei])).toEqual([
      [2, A],
      [8, B],
    ]);
    expect(a.extracted.errors).toEqual([
      { row: 3, value: '12345', reason: 'not_15_digits' },
      { row: 4, value: badCheck, reason: 'check_digit' },
      { row: 5, value: '', reason: 'missing' },
      { row: 6, value: A, reason: 'duplicate' },
    ]);
    expect(a.extracted.total).toBe(6);
  });

  it('takes columns and header row from mapping over the names', async () => {
    const file = csvFile([['notice'], ['a', 'b', 'c', 'd'], ['x', 'iPhone 14', A, 'SER1'], ['x', 'iPhone 14', B, 'SER2']]);
    const a = await analyse(file, readMapping({ imei: 'C', serial: 'd', model: 'B', headerRow: 2 }));
    expect(a.columns).toEqual({ imei: 'C', serial: 'D', model: 'B', note: null, headerRow: 2 });
    expect(a.extracted.lines.map((l) => [l.row, l.imei, l.model, l.serial])).toEqual([
      [3, A, 'iPhone 14', 'SER1'],
      [4, B, 'iPhone 14', 'SER2'],
    ]);
    // headerRow 0: every row is data
    const none = await analyse(csvFile([[A], [B]]), readMapping({ imei: 'A', headerRow: 0 }));
    expect(none.extracted.lines.map((l) => l.row)).toEqual([1, 2]);
  });

  it('refuses a file without an IMEI column, a bad mapping and an old .xls', async () => {
    expect((await errorOf(analyse(csvFile([['品番', '数量'], ['A-1', '3']]), {}))).error).toBe('imei column not found');
    for (const m of [{ imei: '3' }, { headerRow: -1 }, { headerRow: 1.5 }, { sheet: 4 }, 'C']) {
      expect((await errorOf(Promise.resolve().then(() => readMapping(m)))).error).toBe('invalid mapping');
    }
    expect((await errorOf(analyse(csvFile([['IMEI'], [A]]), readMapping({ headerRow: 9 })))).error).toBe('invalid mapping');
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect((await errorOf(analyse(xls, {}))).error).toBe('unsupported file');
  });

  it('column letters read both ways', () => {
    expect([columnIndex('A'), columnIndex('z'), columnIndex('AA'), columnIndex('1')]).toEqual([0, 25, 26, null]);
    expect([columnLetters(0), columnLetters(25), columnLetters(26), columnLetters(701)]).toEqual(['A', 'Z', 'AA', 'ZZ']);
  });

  it('picks the delimiter found on most lines, ignoring quoted ones', () => {
    expect(detectDelimiter('"a,b"\tc\n"d,e"\tf')).toBe('\t');
    expect(detectDelimiter('IMEI\n123')).toBe(',');
    expect(detectDelimiter('a;b;c\n1;2;3')).toBe(';');
  });
});

describe('reading an XLSX shipping notice', () => {
  it('reads the first sheet, numbers as IMEIs, with Japanese headers', async () => {
    const file = await xlsxFile([
      { name: '入荷明細', rows: [['機種', 'IMEI', 'シリアル'], ['iPhone 15', Number(A), 'S1'], ['iPhone 15', B, 'S2']] },
      { name: '別紙', rows: [['IMEI'], [C]] },
    ]);
    const a = await analyse(file, {});
    expect(a.table).toMatchObject({ kind: 'xlsx', sheet: '入荷明細', encoding: null });
    expect(a.extracted.lines.map((l) => [l.row, l.imei, l.serial])).toEqual([
      [2, A, 'S1'],
      [3, B, 'S2'],
    ]);
  });

  it('reads the sheet mapping names, and refuses one that is missing', async () => {
    const file = await xlsxFile([
      { name: '表紙', rows: [['入荷予定']] },
      { name: 'Devices', rows: [['Model', 'IMEI'], ['Pixel 9', C]] },
    ]);
    const a = await analyse(file, readMapping({ sheet: 'Devices' }));
    expect(a.table.sheet).toBe('Devices');
    expect(a.extracted.lines).toEqual([{ row: 2, imei: C, serial: '', model: 'Pixel 9', note: '' }]);
    const err = await errorOf(analyse(file, readMapping({ sheet: 'なし' })));
    expect(err.error).toBe('sheet not found');
  });
});
