import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../core/errors';
import { analyse } from './inbound-import';
import { readMapping } from './inbound-columns';
import { testImei, xlsxFile } from './inbound.testkit';

/**
 * The XLSX reader reads the parts itself (ZIP directory, inflate, SAX): what Japanese Excel and other writers
 * put in a workbook that exceljs's own files do not — phonetic guides in shared strings, rich text runs,
 * inline strings, prefixed tags, sheets listed in another order than their parts — and broken files.
 */
const A = testImei(11);
const B = testImei(12);
const C = testImei(13);

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

async function handMade(parts: Record<string, string>, compression: 'DEFLATE' | 'STORE' = 'DEFLATE'): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(parts)) zip.file(name, text);
  return Buffer.from(await zip.generateAsync({ type: 'nodebuffer', compression }));
}

const rels = (targets: string[], extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${targets
    .map((t, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="${t}"/>`)
    .join('')}${extra}</Relationships>`;

async function errorOf(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('reading the XLSX parts directly', () => {
  it('takes shared strings without their phonetic guides, joins rich text runs, reads inline strings and numbers', async () => {
    const file = await handMade({
      'xl/workbook.xml': `<workbook ${NS}><sheets><sheet name="入荷明細" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': rels(['worksheets/sheet1.xml'], '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="/xl/sharedStrings.xml"/>'),
      'xl/sharedStrings.xml': `<sst ${NS}><si><t>機種</t><rPh sb="0" eb="2"><t>キシュ</t></rPh><phoneticPr fontId="1"/></si><si><t>IMEI</t></si><si><r><t>シリアル</t></r><r><rPr><b/></rPr><t>番号</t></r></si><si><t xml:space="preserve">iPhone &amp; 15 </t></si></sst>`,
      'xl/worksheets/sheet1.xml': `<worksheet ${NS}><sheetData>
        <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>
        <row r="3"><c r="A3" t="s"><v>3</v></c><c r="B3"><v>${A}</v></c><c r="C3" t="inlineStr"><is><t>SN-</t><r><t>001</t></r></is></c></row>
        <row r="4"><c r="A4" t="str"><f>A3</f><v>iPhone &amp; 15 </v></c><c r="B4" t="str"><v>${B}</v></c><c r="D4" t="e"><v>#N/A</v></c></row>
      </sheetData></worksheet>`,
    });
    const a = await analyse(file, {});
    expect(a.table.sheet).toBe('入荷明細');
    expect(a.table.rows[0]?.cells).toEqual(['機種', 'IMEI', 'シリアル番号']);
    expect(a.extracted.lines).toEqual([
      { row: 3, imei: A, serial: 'SN-001', model: 'iPhone & 15', note: '' },
      { row: 4, imei: B, serial: '', model: 'iPhone & 15', note: '' },
    ]);
  });

  it('finds the first visible sheet by the workbook order, reads prefixed tags and stored (uncompressed) parts', async () => {
    const file = await handMade(
      {
        'xl/workbook.xml': `<x:workbook xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:sheets><x:sheet name="作業用" sheetId="3" state="hidden" r:id="rId1"/><x:sheet name="明細" sheetId="2" r:id="rId2"/><x:sheet name="控え" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
        'xl/_rels/workbook.xml.rels': rels(['worksheets/sheet1.xml', 'worksheets/sheet2.xml']),
        'xl/worksheets/sheet1.xml': `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row><x:c t="inlineStr"><x:is><x:t>IMEI</x:t></x:is></x:c></x:row><x:row><x:c><x:v>${C}</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
        'xl/worksheets/sheet2.xml': `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row><x:c t="inlineStr"><x:is><x:t>IMEI</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>備考</x:t></x:is></x:c></x:row><x:row><x:c><x:v>3.52099000000014E+14</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
      },
      'STORE',
    );
    const first = await analyse(file, {});
    expect(first.table.sheet).toBe('明細');
    expect(first.extracted.lines).toEqual([{ row: 2, imei: '352099000000014', serial: '', model: '', note: 'TRUE' }]);
    const named = await analyse(file, readMapping({ sheet: '控え' }));
    expect(named.extracted.lines.map((l) => l.imei)).toEqual([C]);
  });

  it('finds a workbook stored elsewhere through the package relations', async () => {
    const file = await handMade({
      '_rels/.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" Target="book/wb.xml"/></Relationships>`,
      'book/wb.xml': `<workbook ${NS}><sheets><sheet name="入荷" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'book/_rels/wb.xml.rels': rels(['../data/s1.xml'], '<Relationship Id="rId2" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/sharedStrings" Target="strings.xml"/>'),
      'book/strings.xml': `<sst ${NS}><si><t>IMEI</t></si></sst>`,
      'data/s1.xml': `<worksheet ${NS}><sheetData><row><c t="s"><v>0</v></c></row><row><c><v>${A}</v></c></row></sheetData></worksheet>`,
    });
    const a = await analyse(file, {});
    expect(a.table.sheet).toBe('入荷');
    expect(a.extracted.lines.map((l) => l.imei)).toEqual([A]);
  });

  it('refuses a broken workbook as unreadable', async () => {
    const good = await xlsxFile([{ name: 'S', rows: [['IMEI'], [A]] }]);
    const truncated = good.subarray(0, Math.floor(good.length / 2));
    expect((await errorOf(analyse(truncated, {}))).error).toBe('unreadable file');
    const noWorkbook = await handMade({ 'xl/worksheets/sheet1.xml': '<worksheet/>' });
    expect((await errorOf(analyse(noWorkbook, {}))).error).toBe('unreadable file');
    const badXml = await handMade({
      'xl/workbook.xml': `<workbook ${NS}><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': rels(['worksheets/sheet1.xml']),
      'xl/worksheets/sheet1.xml': `<worksheet ${NS}><sheetData><row><c><v>1</c></row>`,
    });
    expect((await errorOf(analyse(badXml, {}))).error).toBe('unreadable file');
  });

  it('stops reading at the row limit', async () => {
    const rows = Array.from({ length: 50_200 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`).join('');
    const file = await handMade({
      'xl/workbook.xml': `<workbook ${NS}><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': rels(['worksheets/sheet1.xml']),
      'xl/worksheets/sheet1.xml': `<worksheet ${NS}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>IMEI</t></is></c></row>${rows}</sheetData></worksheet>`,
    });
    const err = await errorOf(analyse(file, {}));
    expect([err.kind, err.error]).toEqual(['too_large', 'too many rows']);
  }, 60_000);

  it('refuses a sheet that inflates to more cells than a notice holds (413), before holding them all', async () => {
    const row = (r: number) => `<row r="${r}">${'<c><v>1</v></c>'.repeat(2_000)}</row>`;
    const file = await handMade({
      'xl/workbook.xml': `<workbook ${NS}><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': rels(['worksheets/sheet1.xml']),
      'xl/worksheets/sheet1.xml': `<worksheet ${NS}><sheetData>${Array.from({ length: 505 }, (_, i) => row(i + 1)).join('')}</sheetData></worksheet>`,
    });
    expect(file.length).toBeLessThan(200_000);
    const err = await errorOf(analyse(file, {}));
    expect([err.kind, err.error]).toEqual(['too_large', 'file too large']);
  }, 60_000);
});
