import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstYear } from '../../../../shared/dates';
import type { Inbound, InboundLine, InboundRowError } from '../../../../shared/api/contracts/inbound';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { b64, csvFile, noticeRows, testImei, xlsxFile } from './inbound.testkit';

let server: TestServer;
let c: Client;
const yy = String(jstYear() % 100).padStart(2, '0');

beforeAll(async () => {
  server = await startTestServer();
  c = server.client();
});
afterAll(() => server.close());

type Created = { inbound: Inbound; errors: InboundRowError[]; errorCount: number };
type Detail = { inbound: Inbound; lines: InboundLine[] };
type Scan = { result: string; line: InboundLine; device: { imei: string; model?: string; cust?: string; serial?: string; note?: string } | null };

async function create(rows: (string | number)[][], extra: Record<string, unknown> = {}): Promise<Created> {
  const r = await c.post<Created>('/api/inbound', { name: '11月入荷 第1便', cust: 'ABC物流株式会社', filename: 'notice.csv', file: b64(csvFile(rows, { encoding: 'shift_jis' })), ...extra });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

describe('POST /api/inbound', () => {
  it('stores the valid rows, numbers the list IB-<yy>-<nnnn> and answers the rows not taken', async () => {
    const rows = noticeRows(3, 100);
    rows.push(['4', 'iPhone 15', '1234', 'SNX', '']);
    const first = await create(rows);
    expect(first.inbound).toMatchObject({ no: `IB-${yy}-0001`, name: '11月入荷 第1便', cust: 'ABC物流株式会社', status: 'open', counts: { expected: 3, received: 0, unexpected: 0, missing: 3 } });
    expect(first.errors).toEqual([{ row: 5, value: '1234', reason: 'not_15_digits' }]);
    expect(first.errorCount).toBe(1);
    const second = await create(noticeRows(1, 200));
    expect(second.inbound.no).toBe(`IB-${yy}-0002`);
    const list = (await c.get<{ inbounds: Inbound[] }>('/api/inbound')).body.inbounds;
    expect(list.slice(0, 2).map((l) => l.no)).toEqual([`IB-${yy}-0002`, `IB-${yy}-0001`]);
    const detail = (await c.get<Detail>(`/api/inbound/${first.inbound.id}`)).body;
    expect(detail.lines).toEqual([
      { imei: testImei(100), serial: 'SN000100', model: 'Galaxy S24', note: '', state: 'expected', scannedAt: null, device: null, row: 2 },
      { imei: testImei(101), serial: 'SN000101', model: 'iPhone 15', note: '', state: 'expected', scannedAt: null, device: null, row: 3 },
      { imei: testImei(102), serial: 'SN000102', model: 'Galaxy S24', note: '', state: 'expected', scannedAt: null, device: null, row: 4 },
    ]);
  });

  it('imports an XLSX file', async () => {
    const file = await xlsxFile([{ name: 'Sheet1', rows: noticeRows(2, 300) }]);
    const r = await c.post<Created>('/api/inbound', { name: 'Excel便', cust: 'DEF商事', file: b64(file), filename: 'notice.xlsx' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.inbound.counts.expected).toBe(2);
  });

  it('refuses a missing name, customer or file, bad base64, a file without IMEI rows and a bad mapping', async () => {
    const file = b64(csvFile(noticeRows(1, 400)));
    const cases: [Record<string, unknown>, number, string][] = [
      [{ cust: 'A', file }, 400, 'name required'],
      [{ name: 'n', cust: ' ', file }, 400, 'cust required'],
      [{ name: 'n', cust: 'A' }, 400, 'file required'],
      [{ name: 'n', cust: 'A', file: '%%%%' }, 400, 'invalid file'],
      [{ name: 'n', cust: 'A', file: b64(csvFile([['品番'], ['x']])) }, 400, 'imei column not found'],
      [{ name: 'n', cust: 'A', file: b64(csvFile([['IMEI'], ['123']])) }, 400, 'no valid rows'],
      [{ name: 'n', cust: 'A', file, mapping: { imei: '1' } }, 400, 'invalid mapping'],
    ];
    const before = (await c.get<{ inbounds: Inbound[] }>('/api/inbound')).body.inbounds.length;
    for (const [body, status, error] of cases) {
      const r = await c.post('/api/inbound', body);
      expect([r.status, r.body.error], JSON.stringify(body).slice(0, 80)).toEqual([status, error]);
    }
    expect((await c.get<{ inbounds: Inbound[] }>('/api/inbound')).body.inbounds).toHaveLength(before);
  });

  it('refuses a file over 20 MB before reading it (413)', async () => {
    const big = 'A'.repeat(Math.ceil((20 * 1024 * 1024) / 3) * 4 + 8);
    const r = await c.post('/api/inbound', { name: 'n', cust: 'A', file: big });
    expect([r.status, r.body.error]).toEqual([413, 'file too large']);
  });
});

describe('POST /api/inbound/preview', () => {
  it('answers the detected columns, the first rows and the row errors without storing anything', async () => {
    const rows = noticeRows(12, 500);
    rows.push(['13', 'iPhone 15', testImei(500), 'dup', '']);
    const before = (await c.get<{ inbounds: Inbound[] }>('/api/inbound')).body.inbounds.length;
    const r = await c.post<Record<string, unknown>>('/api/inbound/preview', { file: b64(csvFile(rows, { encoding: 'shift_jis', delimiter: '\t' })) });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'csv', encoding: 'shift_jis', delimiter: '\t', columns: { imei: 'C', serial: 'D', model: 'B', note: 'E', headerRow: 1 },
      headers: ['No', '機種', 'IMEI', 'シリアル', '備考'], total: 13, valid: 12, errors: [{ row: 14, value: testImei(500), reason: 'duplicate' }], errorCount: 1,
    });
    expect(r.body.rows).toHaveLength(10);
    expect((r.body.rows as { row: number; cells: string[] }[])[0]).toEqual({ row: 2, cells: ['1', 'Galaxy S24', testImei(500), 'SN000500', ''] });
    expect((await c.get<{ inbounds: Inbound[] }>('/api/inbound')).body.inbounds).toHaveLength(before);
  });
});

describe('POST /api/inbound/{id}/scan', () => {
  it('receives a listed IMEI into the ledger with the list customer and the row model and serial, once', async () => {
    const { inbound } = await create(noticeRows(3, 600));
    const imei = testImei(601);
    const r = await c.post<Scan>(`/api/inbound/${inbound.id}/scan`, { imei: `${imei.slice(0, 8)}-${imei.slice(8)}` });
    expect(r.status, r.text).toBe(200);
    expect(r.body.result).toBe('received');
    expect(r.body.line).toMatchObject({ imei, state: 'received', device: imei });
    expect(r.body.device).toMatchObject({ imei, model: 'iPhone 15', serial: 'SN000601', cust: 'ABC物流株式会社' });
    expect(r.body.device?.note).toBe(`入荷予定 ${inbound.no}`);
    // In hand, as the receiving session registers a device (the ledger's default 入荷待ち: not arrived yet).
    expect(r.body.device).toMatchObject({ status: '入荷済', chip: 'c-blue' });
    const again = await c.post<Scan>(`/api/inbound/${inbound.id}/scan`, { imei });
    expect(again.body.result).toBe('duplicate');
    const detail = (await c.get<Detail>(`/api/inbound/${inbound.id}`)).body;
    expect(detail.inbound.counts).toEqual({ expected: 3, received: 1, unexpected: 0, missing: 2 });
  });

  it('stores a received device exactly as POST /api/device stores the same fields (keys in the same order)', async () => {
    const { inbound } = await create(noticeRows(2, 650));
    const scanned = (await c.post<Scan>(`/api/inbound/${inbound.id}/scan`, { imei: testImei(651) })).body.device as Record<string, unknown>;
    const stranger = testImei(659);
    const unlisted = (await c.post<Scan>(`/api/inbound/${inbound.id}/scan`, { imei: stranger, confirm: true })).body.device as Record<string, unknown>;
    const direct = async (imei: string, fields: Record<string, unknown>) =>
      (await c.post<{ device: Record<string, unknown> }>('/api/device', { imei, ...fields, cust: 'ABC物流株式会社', status: '入荷済', note: `入荷予定 ${inbound.no}` })).body.device;
    const same = (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).filter(([k]) => !['imei', 'asset', 'created', 'updated'].includes(k)));
    const listed = await direct(testImei(651, '35877701'), { model: 'iPhone 15', serial: 'SN000651' });
    expect(Object.keys(scanned)).toEqual(Object.keys(listed));
    expect(same(scanned)).toEqual(same(listed));
    const bare = await direct(testImei(659, '35877701'), { model: '機種不明' });
    expect(Object.keys(unlisted)).toEqual(Object.keys(bare));
    expect(same(unlisted)).toEqual(same(bare));
    expect(unlisted).not.toHaveProperty('serial');
  });

  it('links a device the ledger already has instead of registering it again', async () => {
    const { inbound } = await create(noticeRows(1, 700));
    const imei = testImei(700);
    await c.post('/api/device', { imei, model: 'Pixel 8', cust: '既存顧客' });
    const r = await c.post<Scan>(`/api/inbound/${inbound.id}/scan`, { imei });
    expect(r.body.result).toBe('received');
    expect(r.body.device).toMatchObject({ imei, model: 'Pixel 8', cust: '既存顧客' });
  });

  it('records an IMEI not on the list as unexpected, and registers it only with confirm', async () => {
    const { inbound } = await create(noticeRows(1, 800));
    const stranger = testImei(899);
    const r = await c.post<Scan>(`/api/inbound/${inbound.id}/scan`, { imei: stranger });
    expect(r.body).toMatchObject({ result: 'unexpected', line: { imei: stranger, state: 'unexpected', device: null }, device: null });
    expect((await c.get(`/api/device/${stranger}`)).status).not.toBe(200);
    const devicesBefore = (await c.get<{ count: number }>('/api/devices')).body.count;
    const confirmed = await c.post<Scan>(`/api/inbound/${inbound.id}/scan`, { imei: stranger, confirm: true });
    expect(confirmed.body).toMatchObject({ result: 'unexpected', line: { state: 'unexpected', device: stranger }, device: { imei: stranger, cust: 'ABC物流株式会社' } });
    expect((await c.get<{ count: number }>('/api/devices')).body.count).toBe(devicesBefore + 1);
    const detail = (await c.get<Detail>(`/api/inbound/${inbound.id}`)).body;
    expect(detail.inbound.counts).toEqual({ expected: 1, received: 0, unexpected: 1, missing: 1 });
    expect(detail.lines.map((l) => l.state)).toEqual(['expected', 'unexpected']);
  });

  it('answers 400 invalid for a malformed IMEI, 404 for an unknown list, 409 once closed', async () => {
    const { inbound } = await create(noticeRows(1, 900));
    const bad = testImei(900).slice(0, 14) + String((Number(testImei(900)[14]) + 1) % 10);
    for (const imei of ['12345', bad, '', 'abc']) {
      const r = await c.post(`/api/inbound/${inbound.id}/scan`, { imei });
      expect([r.status, r.body.error, r.body.result]).toEqual([400, 'invalid imei', 'invalid']);
    }
    expect((await c.post('/api/inbound/nope/scan', { imei: testImei(900) })).status).toBe(404);
    expect((await c.post(`/api/inbound/${inbound.id}/close`, {})).status).toBe(200);
    const r = await c.post(`/api/inbound/${inbound.id}/scan`, { imei: testImei(900) });
    expect([r.status, r.body.error]).toEqual([409, 'inbound closed']);
  });
});

describe('POST /api/inbound/{id}/close and the report', () => {
  it('closes with the missing and unexpected lines; the CSV and PDF list them with totals and who closed it', async () => {
    const { inbound } = await create(noticeRows(3, 1000));
    await c.post(`/api/inbound/${inbound.id}/scan`, { imei: testImei(1000) });
    await c.post(`/api/inbound/${inbound.id}/scan`, { imei: testImei(1099) });
    const closed = await c.post<{ inbound: Inbound; report: { received: number; missing: InboundLine[]; unexpected: InboundLine[] } }>(`/api/inbound/${inbound.id}/close`, { by: '=山田 太郎' });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.inbound).toMatchObject({ status: 'closed', closedBy: '=山田 太郎', counts: { expected: 3, received: 1, unexpected: 1, missing: 2 } });
    expect(closed.body.report.received).toBe(1);
    expect(closed.body.report.missing.map((l) => l.imei)).toEqual([testImei(1001), testImei(1002)]);
    expect(closed.body.report.unexpected.map((l) => l.imei)).toEqual([testImei(1099)]);
    expect((await c.post(`/api/inbound/${inbound.id}/close`, {})).body.error).toBe('inbound closed');

    const csv = await c.get(`/api/inbound/${inbound.id}/report.csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(await (await fetch(`${server.url}/api/inbound/${inbound.id}/report.csv`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid') ?? ''}` } })).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.text).toContain(`入荷予定番号,${inbound.no}`);
    expect(csv.text).toContain("締めた人,'=山田 太郎");
    expect(csv.text).toContain('未着台数,2');
    expect(csv.text).toContain('予定外台数,1');
    expect(csv.text).toContain(`未着,${testImei(1001)},SN001001,iPhone 15,,3,,`);
    expect(csv.text).toContain(`予定外,${testImei(1099)},`);

    const pdf = await fetch(`${server.url}/api/inbound/${inbound.id}/report.pdf`, { headers: { cookie: `kit_tid=${c.cookie('kit_tid') ?? ''}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const buf = Buffer.from(await pdf.arrayBuffer());
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
    const { extractText } = await import('unpdf');
    const text = (await extractText(new Uint8Array(buf), { mergePages: true })).text;
    for (const s of ['入荷差異報告書', inbound.no, testImei(1001), testImei(1002), testImei(1099), '予定台数', '3台', '未着台数', '=山田 太郎']) expect(text).toContain(s);
  });
});

describe('POST /api/inbound/{id}/delete', () => {
  it('deletes a list while nothing is received, and refuses once a device is received', async () => {
    const a = (await create(noticeRows(2, 1100))).inbound;
    await c.post(`/api/inbound/${a.id}/scan`, { imei: testImei(1199) });
    expect((await c.post(`/api/inbound/${a.id}/delete`)).body).toEqual({ ok: true, id: a.id });
    expect((await c.get(`/api/inbound/${a.id}`)).status).toBe(404);
    expect((await c.post(`/api/inbound/${a.id}/delete`)).status).toBe(404);
    const b = (await create(noticeRows(2, 1200))).inbound;
    await c.post(`/api/inbound/${b.id}/scan`, { imei: testImei(1200) });
    const r = await c.post(`/api/inbound/${b.id}/delete`);
    expect([r.status, r.body.error]).toEqual([409, 'inbound has received devices']);
    expect((await c.get(`/api/inbound/${b.id}`)).status).toBe(200);
  });
});

describe('workspaces', () => {
  it('another workspace cannot read, scan, close, report or delete a list by its id', async () => {
    const { inbound } = await create(noticeRows(1, 1400));
    const other = server.client();
    expect((await other.get<{ inbounds: Inbound[] }>('/api/inbound')).body.inbounds).toEqual([]);
    for (const r of [
      await other.get(`/api/inbound/${inbound.id}`),
      await other.get(`/api/inbound/${inbound.id}/report.csv`),
      await other.post(`/api/inbound/${inbound.id}/scan`, { imei: testImei(1400) }),
      await other.post(`/api/inbound/${inbound.id}/close`, {}),
      await other.post(`/api/inbound/${inbound.id}/delete`, {}),
    ]) {
      expect([r.status, r.body.error]).toEqual([404, 'inbound not found']);
    }
    expect((await c.get<Detail>(`/api/inbound/${inbound.id}`)).body.inbound).toMatchObject({ status: 'open', counts: { received: 0 } });
  });
});

describe('who may', () => {
  it('a viewer reads lists and reports but may not create, scan, close or delete', async () => {
    const signup = await server.client().post<{ token: string }>('/api/account/signup', { email: 'owner@inbound.jp', password: 'inbound-pass-1' });
    expect(signup.status, signup.text).toBe(200);
    const owner = { authorization: `Bearer ${signup.body.token}` };
    const inv = await server.client().post<{ token: string }>('/api/team/invite', { email: 'viewer@inbound.jp', role: 'viewer' }, owner);
    const accepted = await server.client().post<{ token: string }>('/api/team/accept', { inviteToken: inv.body.token, email: 'viewer@inbound.jp', password: 'inbound-pass-1' });
    const viewer = { authorization: `Bearer ${accepted.body.token}` };
    const made = await server.client().post<Created>('/api/inbound', { name: 'n', cust: 'A', file: b64(csvFile(noticeRows(1, 1300))) }, owner);
    expect(made.status, made.text).toBe(200);
    const id = made.body.inbound.id;
    const v = server.client();
    expect((await v.get('/api/inbound', viewer)).status).toBe(200);
    expect((await v.get(`/api/inbound/${id}`, viewer)).status).toBe(200);
    expect((await v.get(`/api/inbound/${id}/report.csv`, viewer)).status).toBe(200);
    for (const [path, body] of [
      ['/api/inbound', { name: 'n', cust: 'A', file: b64(csvFile(noticeRows(1, 1301))) }],
      [`/api/inbound/${id}/scan`, { imei: testImei(1300) }],
      [`/api/inbound/${id}/close`, {}],
      [`/api/inbound/${id}/delete`, {}],
    ] as const) {
      expect((await v.post(path, body, viewer)).status, path).toBe(403);
    }
    expect((await v.get<Detail>(`/api/inbound/${id}`, viewer)).body.inbound.counts.received).toBe(0);
  });
});
