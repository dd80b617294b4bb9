import { describe, expect, it } from 'vitest';
import type { Inbound, InboundLine } from '../../../../shared/api/contracts/inbound';
import { csvCell, PDF_MAX_LINES, reportCsv, reportPdf } from './inbound-report';
import { testImei } from './inbound.testkit';

const list: Inbound = {
  id: 'ib-1', no: 'IB-26-0007', name: '11月入荷', cust: 'ABC物流株式会社', createdAt: Date.UTC(2026, 10, 20, 1), status: 'closed',
  counts: { expected: 600, received: 0, unexpected: 1, missing: 600 }, filename: 'notice.csv', closedAt: Date.UTC(2026, 10, 21, 8, 30), closedBy: '山田 太郎',
};
const missing: InboundLine[] = Array.from({ length: 600 }, (_, i) => ({ imei: testImei(i), serial: `SN${i}`, model: 'iPhone 15', note: '', state: 'expected', scannedAt: null, device: null, row: i + 2 }));
const stranger: InboundLine = { imei: testImei(9999), serial: '', model: '', note: '', state: 'unexpected', scannedAt: Date.UTC(2026, 10, 21, 2), device: null, row: 0 };

describe('the discrepancy report', () => {
  it('CSV cells: formulas neutralised, quotes and separators quoted', () => {
    expect(['=SUM(A1)', '+1', '-2', '@x', 'a,b', 'say "hi"', '352099000000014'].map(csvCell)).toEqual(["'=SUM(A1)", "'+1", "'-2", "'@x", '"a,b"', '"say ""hi"""', '352099000000014']);
  });

  it('CSV lists every missing and unexpected IMEI with the totals and who closed it when', () => {
    const csv = reportCsv(list, [...missing, stranger]);
    expect(csv.startsWith('\uFEFF入荷差異報告書\r\n')).toBe(true);
    expect(csv).toContain('締め日時,2026-11-21 17:30');
    expect(csv).toContain('締めた人,山田 太郎');
    expect(csv.split('\r\n').filter((l) => l.startsWith('未着,'))).toHaveLength(600);
    expect(csv).toContain(`予定外,${stranger.imei},,,,,2026-11-21 11:00,未登録`);
  });

  it(`PDF lists the first ${PDF_MAX_LINES} IMEIs of a table and says how many more the CSV holds`, async () => {
    const pdf = await reportPdf(list, [...missing, stranger], { name: '株式会社キッティングセンター' }, Date.now());
    const { extractText } = await import('unpdf');
    const text = (await extractText(new Uint8Array(pdf), { mergePages: true })).text;
    expect(text).toContain(testImei(PDF_MAX_LINES - 1));
    expect(text).not.toContain(testImei(PDF_MAX_LINES));
    expect(text).toContain(`ほか ${600 - PDF_MAX_LINES}台はCSV参照`);
    for (const s of ['入荷差異報告書', 'IB-26-0007', 'ABC物流株式会社', '山田 太郎', '2026-11-21 17:30', stranger.imei, '600台', '株式会社キッティングセンター']) expect(text).toContain(s);
  });
});
