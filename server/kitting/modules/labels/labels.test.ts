import bwipjs from 'bwip-js/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { qrPayload } from './label-render';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Template {
  id: string;
  name: string;
  size: string;
  fields: Record<string, boolean>;
  ts: number;
}

let server: TestServer;
let api: Client;
let imei: string;
let asset: string;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
  const res = await api.post<{ device: { imei: string; asset: string } }>('/api/device', { imei: '356938035643809', model: 'iPhone 15', cust: '株式会社サンプル' });
  imei = res.body.device.imei;
  asset = res.body.device.asset;
});
afterAll(() => server.close());

/** Bar and space widths of the Code 128 symbol drawn in a label SVG (bwip-js draws bars as stroked lines). */
function barcodeWidths(svg: string): number[] {
  const m = /<svg id="barcode"[\s\S]*?<\/svg>/.exec(svg);
  if (!m) return [];
  const bars: [number, number][] = [];
  for (const p of m[0].matchAll(/stroke-width="([\d.]+)" d="([^"]+)"/g)) {
    const w = Number(p[1]);
    for (const x of p[2].matchAll(/M([\d.]+) [\d.]+L/g)) bars.push([Number(x[1]) - w / 2, Number(x[1]) + w / 2]);
  }
  bars.sort((a, b) => a[0] - b[0]);
  const widths: number[] = [];
  bars.forEach(([from, to], i) => {
    widths.push(Math.round(to - from));
    if (i + 1 < bars.length) widths.push(Math.round(bars[i + 1][0] - to));
  });
  return widths;
}

/** The module widths of Code 128 for a text (the encoder's own bar/space sequence). */
function code128Widths(text: string): number[] {
  const [sym] = bwipjs.raw('code128', text, {});
  return 'sbs' in sym ? sym.sbs : [];
}

describe('label templates', () => {
  it('creates a template with id tpl-…, defaults and all field flags', async () => {
    const res = await api.post<{ ok: boolean; template: Template }>('/api/labels/template', { name: '資産ラベル', size: 's', fields: { qr: false } });
    expect(res.status).toBe(200);
    expect(res.body.template.id).toMatch(/^tpl-/);
    expect(res.body.template.id.length).toBeLessThanOrEqual(40);
    expect(res.body.template).toMatchObject({ name: '資産ラベル', size: 's', fields: { mgmt: true, imei: true, cust: true, model: true, qr: false, barcode: true } });
    expect(typeof res.body.template.ts).toBe('number');
    const list = await api.get<{ templates: Template[] }>('/api/labels/templates');
    expect(list.body.templates.map((t) => t.id)).toContain(res.body.template.id);
  });

  it('reads an unknown size as m and clips a long id to 40', async () => {
    const res = await api.post<{ template: Template }>('/api/labels/template', { id: 'x'.repeat(60), size: 'xl' });
    expect(res.body.template.size).toBe('m');
    expect(res.body.template.id).toHaveLength(40);
  });

  it('refuses non-boolean field flags with 400', async () => {
    const res = await api.post('/api/labels/template', { fields: { qr: 'maybe' } });
    expect(res.status).toBe(400);
    expect(res.body.ok).toBe(false);
  });

  it('deletes a template and answers 404 for an unknown one', async () => {
    const t = (await api.post<{ template: Template }>('/api/labels/template', { name: 'tmp' })).body.template;
    expect((await api.post(`/api/labels/template/${t.id}/delete`)).body).toEqual({ ok: true, id: t.id });
    const again = await api.post(`/api/labels/template/${t.id}/delete`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ ok: false, error: 'template not found' });
  });
});

describe('label print log', () => {
  it('records entries lg-… with count, size and date, newest first', async () => {
    const a = await api.post<{ entry: { id: string; count: number; size: string; date: string; ts: number } }>('/api/labels/log', { size: 'l', count: 12 });
    expect(a.body.entry).toMatchObject({ size: 'l', count: 12, date: jstDate() });
    expect(a.body.entry.id).toMatch(/^lg-/);
    const b = await api.post<{ entry: { id: string } }>('/api/labels/log', { count: 'x' });
    const log = await api.get<{ log: { id: string; count: number; size: string }[] }>('/api/labels/log');
    expect(log.body.log[0]).toMatchObject({ id: b.body.entry.id, count: 1, size: 'm' });
    expect(log.body.log[1].id).toBe(a.body.entry.id);
  });

  it('refuses a malformed date', async () => {
    const res = await api.post('/api/labels/log', { date: '12/01' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid date');
    const before = (await api.get<{ log: unknown[] }>('/api/labels/log')).body.log.length;
    for (const date of ['2026-02-31', '2026-13-01']) {
      const r = await api.post('/api/labels/log', { date });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid date');
    }
    expect((await api.get<{ log: unknown[] }>('/api/labels/log')).body.log).toHaveLength(before);
  });
});

describe('GET /api/labels/render', () => {
  it('renders SVG sized in millimetres with a Code 128 barcode that encodes the IMEI', async () => {
    const res = await api.get(`/api/labels/render?imei=${imei}&size=s`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    expect(res.text).toMatch(/<svg[^>]+width="50mm" height="30mm" viewBox="0 0 50 30"/);
    const widths = barcodeWidths(res.text);
    expect(widths).toEqual(code128Widths(imei));
    expect(widths).not.toEqual(code128Widths('356938035643817'));
    expect(res.text).toContain(asset);
    expect(res.text).toContain('株式会社サンプル');
    expect(res.text).toContain(`IMEI ${imei}`);
    expect(res.text).toContain('<svg id="qr"');
  });

  it('follows the template: size and the fields it shows', async () => {
    const t = (await api.post<{ template: Template }>('/api/labels/template', { size: 'l', fields: { qr: false, cust: false } })).body.template;
    const res = await api.get(`/api/labels/render?imei=${imei}&tpl=${t.id}`);
    expect(res.text).toMatch(/width="100mm" height="60mm"/);
    expect(res.text).not.toContain('<svg id="qr"');
    expect(res.text).not.toContain('株式会社サンプル');
    expect(barcodeWidths(res.text)).toEqual(code128Widths(imei));
  });

  it('renders a printable HTML page of the label size', async () => {
    const res = await api.get(`/api/labels/render?imei=${imei}&size=m&format=html`);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('@page{size:70mm 40mm;margin:0}');
    const font = await fetch(`${server.url}/api/labels/font.ttf`);
    expect(font.status).toBe(200);
    expect((await font.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    expect(barcodeWidths(res.text)).toEqual(code128Widths(imei));
  });

  it('renders ZPL with ^BC carrying the IMEI and a QR code', async () => {
    const res = await api.get(`/api/labels/render?imei=${imei}&size=m&format=zpl`);
    expect(res.status).toBe(200);
    expect(res.text.startsWith('^XA')).toBe(true);
    expect(res.text.trim().endsWith('^XZ')).toBe(true);
    expect(res.text).toMatch(new RegExp(`\\^BCN,\\d+,N,N,N,A\\^FD${imei}\\^FS`));
    expect(res.text).toContain(`^BQN,2,`);
    expect(res.text).toContain(`^PW${70 * 8}`);
    expect(res.text).toContain(`^LL${40 * 8}`);
    const hi = await api.get(`/api/labels/render?imei=${imei}&size=m&format=zpl&dpi=300`);
    expect(hi.text).toContain(`^PW${70 * 12}`);
  });

  it('prints Japanese lines as ^GFA bitmaps and keeps ASCII lines in the resident font', async () => {
    const res = await api.get(`/api/labels/render?imei=${imei}&size=m&format=zpl`);
    expect(res.text).not.toContain('株式会社サンプル');
    const fields = [...res.text.matchAll(/\^FO(\d+),(\d+)\^GFA,(\d+),(\d+),(\d+),([^^]*)\^FS/g)];
    expect(fields).toHaveLength(1);
    const [, , , total, count, perRow, data] = fields[0] ?? [];
    expect(total).toBe(count);
    expect(Number(total) % Number(perRow)).toBe(0);
    // the name is 8 full-width characters of 40/11 mm at 8 dots/mm: about 233 dots, so 29 bytes a row
    expect(Number(perRow)).toBeGreaterThanOrEqual(28);
    expect(Number(perRow)).toBeLessThanOrEqual(30);
    expect(data).toMatch(/^[0-9A-Zg-z,!:]+$/);
    expect(res.text).toContain(`^FDIMEI ${imei}^FS`);
    expect(res.text).toMatch(new RegExp(`\\^A0N,\\d+,\\d+\\^FD${asset}\\^FS`));
    expect(res.text).toMatch(/\^A0N,\d+,\d+\^FDiPhone 15\^FS/);
    const hi = await api.get(`/api/labels/render?imei=${imei}&size=m&format=zpl&dpi=300`);
    const hiPerRow = Number(/\^GFA,\d+,\d+,(\d+),/.exec(hi.text)?.[1]);
    expect(hiPerRow).toBeGreaterThanOrEqual(43);
    expect(hiPerRow).toBeLessThanOrEqual(45);
  });

  it('sends a label with only ASCII text without any bitmap', async () => {
    const dev = await api.post<{ device: { imei: string } }>('/api/device', { imei: '356938035643817', model: 'Pixel 9', cust: 'ACME Corp' });
    const res = await api.get(`/api/labels/render?imei=${dev.body.device.imei}&size=s&format=zpl`);
    expect(res.text).not.toContain('^GF');
    expect(res.text).toContain('^FDACME Corp^FS');
    expect(res.text.length).toBeLessThan(600);
  });

  it('puts no serial into the QR code of a device whose serial was never read', async () => {
    const res = await api.get(`/api/labels/render?imei=${imei}&size=m&format=zpl`);
    expect(res.text).toContain(`IMEI:${imei};ASSET:${asset}`);
    expect(res.text).not.toContain('SN:');
    expect(qrPayload({ imei: '1', asset: 'HK-26-1', serial: 'F2LXK0', model: '', cust: '' })).toBe('IMEI:1;ASSET:HK-26-1;SN:F2LXK0');
  });

  it('answers 404 for an unknown device or template and 400 for bad parameters', async () => {
    expect((await api.get('/api/labels/render?imei=000000000000000')).body).toEqual({ ok: false, error: 'device not found' });
    expect((await api.get(`/api/labels/render?imei=${imei}&tpl=tpl-none`)).status).toBe(404);
    for (const q of ['', `imei=${imei}&format=pdf`, `imei=${imei}&size=xl`]) {
      const res = await api.get(`/api/labels/render?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.ok).toBe(false);
    }
  });
});

describe('POST /api/labels/log with a print outcome', () => {
  it('records a failed print with its reason and defaults the outcome to ok', async () => {
    const srv = await startTestServer();
    const api = srv.client();
    const ok = await api.post<{ entry: Record<string, unknown> }>('/api/labels/log', { size: 's', count: 2 });
    expect(ok.body.entry).toMatchObject({ size: 's', count: 2, result: 'ok' });
    const failed = await api.post<{ entry: Record<string, unknown> }>('/api/labels/log', { size: 'm', count: 1, result: 'failed', reason: 'プリンターが見つかりません', printer: 'ZD421' });
    expect(failed.body.entry).toMatchObject({ result: 'failed', reason: 'プリンターが見つかりません', printer: 'ZD421' });
    const log = await api.get<{ log: Record<string, unknown>[] }>('/api/labels/log');
    expect(log.body.log[0]).toMatchObject({ result: 'failed' });
    await srv.close();
  });
});

describe('label print log names the device; render previews chosen fields', () => {
  it('records which device a label was printed for and a browser print as sent', async () => {
    const res = await api.post<{ entry: Record<string, unknown> }>('/api/labels/log', { size: 'm', count: 3, result: 'sent', imei, asset });
    expect(res.body.entry).toMatchObject({ result: 'sent', imei, asset, count: 3 });
    const log = await api.get<{ log: Record<string, unknown>[] }>('/api/labels/log');
    expect(log.body.log[0]).toMatchObject({ result: 'sent', imei, asset });
    // an unknown outcome is not stored as given; an over-long IMEI is clipped to the field's 40 characters
    const bad = await api.post<{ entry: Record<string, unknown> }>('/api/labels/log', { result: 'printed' });
    expect(['ok', 'sent', 'failed']).toContain(bad.body.entry.result ?? 'ok');
    const long = await api.post<{ entry: Record<string, unknown> }>('/api/labels/log', { imei: '1'.repeat(41) });
    expect(String(long.body.entry.imei ?? '').length).toBeLessThanOrEqual(40);
  });

  it('renders only the fields named in ?fields= (an unsaved template edit), and refuses a malformed list', async () => {
    const all = await api.get(`/api/labels/render?imei=${imei}`);
    expect(all.text).toContain('id="qr"');
    expect(all.text).toContain('id="barcode"');
    const some = await api.get(`/api/labels/render?imei=${imei}&fields=imei,model`);
    expect(some.status).toBe(200);
    expect(some.text).not.toContain('id="qr"');
    expect(some.text).not.toContain('id="barcode"');
    expect(some.text).toContain('iPhone 15');
    expect(some.text).not.toContain('株式会社サンプル');
    const none = await api.get(`/api/labels/render?imei=${imei}&fields=`);
    expect(none.status).toBe(200);
    expect(none.text).not.toContain('iPhone 15');
    expect((await api.get(`/api/labels/render?imei=${imei}&fields=<script>`)).status).toBe(400);
  });
});
