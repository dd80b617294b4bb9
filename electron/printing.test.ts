import { describe, expect, it, vi } from 'vitest';
import type { BenchSettingsPatch } from '../shared/station-bridge';
import type { PrintOptions, PrintWindow } from './printing';
import type { ServerClient, ServerResponse } from './server-client';
import { createSettings, type SettingsBackend } from './settings';
import { createStationHandlers, pdfFileName, type StationDeps } from './station-handlers';

function memoryBackend(): SettingsBackend {
  const m = new Map<string, unknown>();
  return { get: (k) => m.get(k), set: (k, v) => void m.set(k, v) };
}

const json = (status: number, body: Record<string, unknown>): ServerResponse => ({
  status,
  body,
  contentType: 'application/json',
  bytes: new Uint8Array(),
});

function setup(opts: { printOk?: boolean; failure?: string; settings?: BenchSettingsPatch; server?: (method: string, path: string, body?: unknown) => ServerResponse } = {}) {
  const jobs: Array<{ url: string; options: PrintOptions; destroyed: () => boolean }> = [];
  const createPrintWindow = (): PrintWindow => {
    let url = '';
    let destroyed = false;
    const job = { url: '', options: {} as PrintOptions, destroyed: () => destroyed };
    return {
      webContents: {
        loadURL: async (u: string) => {
          url = u;
        },
        print: (options, cb) => {
          job.url = url;
          job.options = options;
          jobs.push(job);
          cb(opts.printOk !== false, opts.failure ?? '');
        },
        printToPDF: async () => new TextEncoder().encode(`%PDF-1.4 ${url.length}`),
      },
      destroy: () => {
        destroyed = true;
      },
    };
  };
  const requests: Array<{ method: string; path: string; body?: unknown }> = [];
  const server: ServerClient = {
    url: 'http://127.0.0.1:4000',
    request: async (method, path, body) => {
      requests.push({ method, path, body });
      return opts.server ? opts.server(method, path, body) : json(200, { ok: true });
    },
  };
  const settings = createSettings(memoryBackend());
  if (opts.settings) settings.update(opts.settings);
  const written: Array<[string, Uint8Array]> = [];
  const deps: StationDeps = {
    settings,
    server,
    printers: {
      getPrintersAsync: async () => [
        { name: 'ZD421', displayName: 'Zebra ZD421', description: 'label', options: {} },
        { name: 'LBP', displayName: '', description: '', isDefault: true },
      ],
    },
    createPrintWindow,
    chooseSavePath: vi.fn(async (name: string) => `/home/u/Documents/${name}`),
    writeFile: async (file, bytes) => void written.push([file, bytes]),
    versions: () => ({ app: '0.1.0', electron: '45', chrome: '140', node: '22', platform: 'linux' }),
    setStartAtLogin: vi.fn(),
    now: () => Date.UTC(2026, 2, 31, 16, 30), // 2026-04-01 01:30 JST
    warn: () => {},
  };
  return { handlers: createStationHandlers(deps), jobs, requests, written, deps };
}

describe('label printing', () => {
  it('prints silently to the chosen printer with the page size in microns and no margins', async () => {
    const { handlers, jobs } = setup();
    const r = await handlers.printLabel({ html: '<p>HK-26-0001</p>', widthMm: 62, heightMm: 29.5, printer: 'ZD421', copies: 2 });
    expect(r).toEqual({ ok: true });
    expect(jobs).toHaveLength(1);
    expect(jobs[0].options).toEqual({
      silent: true,
      deviceName: 'ZD421',
      printBackground: true,
      copies: 2,
      margins: { marginType: 'none' },
      pageSize: { width: 62000, height: 29500 },
    });
    expect(decodeURIComponent(jobs[0].url)).toBe('data:text/html;charset=utf-8,<p>HK-26-0001</p>');
    expect(jobs[0].destroyed()).toBe(true);
  });

  it('uses the label printer of the settings when none is given', async () => {
    const { handlers, jobs } = setup({ settings: { labelPrinter: 'ZDesigner ZD421' } });
    await handlers.printLabel({ html: '<p>', widthMm: 40, heightMm: 25 });
    expect(jobs[0].options.deviceName).toBe('ZDesigner ZD421');
  });

  it('writes every print job to the label print log: ok, or failed with the reason', async () => {
    const ok = setup();
    await ok.handlers.printLabel({ html: '<p>', widthMm: 60, heightMm: 40, copies: 3, size: 'l' });
    expect(ok.requests).toEqual([
      { method: 'POST', path: '/api/labels/log', body: { size: 'l', count: 3, date: '2026-04-01', ts: Date.UTC(2026, 2, 31, 16, 30), result: 'ok' } },
    ]);
    const bad = setup({ printOk: false, failure: 'Invalid deviceName provided' });
    const r = await bad.handlers.printLabel({ html: '<p>', widthMm: 60, heightMm: 40, printer: 'gone' });
    expect(r).toEqual({ ok: false, reason: 'プリンターが見つかりません（Invalid deviceName provided）' });
    expect(bad.requests).toHaveLength(1);
    expect(bad.requests[0].body).toMatchObject({ result: 'failed', reason: 'プリンターが見つかりません（Invalid deviceName provided）' });
  });

  it('names the device a label was printed for in the log', async () => {
    const one = setup();
    await one.handlers.printLabel({ html: '<p>', widthMm: 70, heightMm: 40, size: 'm', imei: '353795089752529', asset: 'HK-26-7' });
    expect(one.requests[0].body).toMatchObject({ result: 'ok', imei: '353795089752529', asset: 'HK-26-7' });
    await expect(one.handlers.printLabel({ html: '<p>', widthMm: 70, heightMm: 40, imei: '1'.repeat(41) })).rejects.toThrow(/invalid request/);
  });

  it('refuses a malformed request without printing', async () => {
    const { handlers, jobs } = setup();
    await expect(handlers.printLabel({ html: '', widthMm: 60, heightMm: 40 })).rejects.toThrow(/invalid request/);
    await expect(handlers.printLabel({ html: '<p>', widthMm: Number.NaN, heightMm: 40 })).rejects.toThrow(/invalid request/);
    expect(jobs).toHaveLength(0);
  });

  it('test print uses the label defaults and the label printer', async () => {
    const { handlers, jobs } = setup({ settings: { labelPrinter: 'ZD421', benchName: '東京1', label: { size: 's' } } });
    expect(await handlers.testPrint('label')).toEqual({ ok: true });
    expect(jobs[0].options).toMatchObject({ silent: true, deviceName: 'ZD421', pageSize: { width: 40000, height: 25000 }, margins: { marginType: 'none' } });
    const html = decodeURIComponent(jobs[0].url);
    expect(html).toContain('テスト印刷');
    expect(html).toContain('東京1');
    expect(html).toContain('2026-04-01');
  });

  it('lists the printers', async () => {
    const { handlers } = setup();
    expect(await handlers.listPrinters()).toEqual([
      { name: 'ZD421', displayName: 'Zebra ZD421', description: 'label', isDefault: false },
      { name: 'LBP', displayName: 'LBP', description: '', isDefault: true },
    ]);
  });
});

describe('certificates', () => {
  it('prints an app page on A4 to the certificate printer, or opens the dialog without one', async () => {
    const { handlers, jobs } = setup({ settings: { certificatePrinter: 'Canon LBP' } });
    await handlers.printCertificate({ path: '/certs/KIT-ERZ-2026-0001/print' });
    expect(jobs[0].url).toBe('http://127.0.0.1:4000/certs/KIT-ERZ-2026-0001/print');
    expect(jobs[0].options).toMatchObject({ silent: true, deviceName: 'Canon LBP', pageSize: 'A4' });
    const none = setup();
    await none.handlers.printCertificate({ html: '<h1>証明書</h1>' });
    expect(none.jobs[0].options.silent).toBe(false);
    expect(none.jobs[0].options.deviceName).toBeUndefined();
  });

  it('refuses a path outside the app', async () => {
    const { handlers } = setup();
    await expect(handlers.printCertificate({ path: '//evil.example/x' })).rejects.toThrow(/invalid request/);
    await expect(handlers.printCertificate({ path: 'https://evil.example/' })).rejects.toThrow(/invalid request/);
  });

  it('saves the server’s PDF where the technician chose', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 cert');
    const { handlers, written, deps, requests } = setup({
      server: () => ({ status: 200, body: null, contentType: 'application/pdf', bytes: pdf }),
    });
    const r = await handlers.savePdf({ path: '/api/cert/KIT-ERZ-2026-0001/pdf', fileName: 'KIT-ERZ-2026-0001' });
    expect(r).toEqual({ ok: true, file: '/home/u/Documents/KIT-ERZ-2026-0001.pdf' });
    expect(deps.chooseSavePath).toHaveBeenCalledWith('KIT-ERZ-2026-0001.pdf');
    expect(requests[0]).toEqual({ method: 'GET', path: '/api/cert/KIT-ERZ-2026-0001/pdf', body: undefined });
    expect(written).toEqual([['/home/u/Documents/KIT-ERZ-2026-0001.pdf', pdf]]);
  });

  it('renders HTML to PDF, and reports cancel and server errors without writing', async () => {
    const ok = setup();
    const r = await ok.handlers.savePdf({ html: '<h1>消去証明書</h1>', fileName: 'a/b:c.pdf' });
    expect(r.ok).toBe(true);
    expect(r.file).toBe('/home/u/Documents/a_b_c.pdf');
    expect(new TextDecoder().decode(ok.written[0][1])).toMatch(/^%PDF-1.4/);

    const canceled = setup();
    (canceled.deps.chooseSavePath as ReturnType<typeof vi.fn>).mockResolvedValueOnce(null);
    expect(await canceled.handlers.savePdf({ html: '<p>', fileName: 'x' })).toEqual({ ok: false, reason: 'canceled' });
    expect(canceled.written).toEqual([]);

    const missing = setup({ server: () => json(404, { ok: false, error: 'cert not found' }) });
    expect(await missing.handlers.savePdf({ path: '/api/cert/NOPE/pdf', fileName: 'x' })).toEqual({ ok: false, reason: 'cert not found' });
    expect(missing.written).toEqual([]);
  });

  it('makes safe PDF file names', () => {
    expect(pdfFileName('KIT-ERZ-2026-0001')).toBe('KIT-ERZ-2026-0001.pdf');
    expect(pdfFileName('  ')).toBe('document.pdf');
    expect(pdfFileName('x?.PDF')).toBe('x_.pdf');
  });
});

describe('settings and enrolment through the bridge', () => {
  it('applies start-at-login to the OS only when it changes', async () => {
    const { handlers, deps } = setup();
    await handlers.setSettings({ benchName: 'A' });
    expect(deps.setStartAtLogin).not.toHaveBeenCalled();
    expect((await handlers.setSettings({ startAtLogin: true })).startAtLogin).toBe(true);
    expect(deps.setStartAtLogin).toHaveBeenCalledWith(true);
  });

  it('enrols through the embedded server and keeps the enrolment and the central URL', async () => {
    const { handlers, requests } = setup({ settings: { benchName: '東京1' }, server: () => json(200, { ok: true, enrolled: true, workspace: 'w-abc' }) });
    const r = await handlers.enrol({ centralUrl: 'https://central.example/', code: ' ABCD-1234 ' });
    expect(requests).toEqual([{ method: 'POST', path: '/api/sync/enrol', body: { central: 'https://central.example', code: 'ABCD-1234', name: '東京1' } }]);
    expect(r.ok).toBe(true);
    expect(r.settings?.centralUrl).toBe('https://central.example');
    expect(r.settings?.enrolment).toEqual({ centralUrl: 'https://central.example', enrolledAt: Date.UTC(2026, 2, 31, 16, 30), workspace: 'w-abc' });
  });

  it('reports a refused code and changes no setting', async () => {
    const { handlers, deps } = setup({ server: () => json(400, { ok: false, error: 'invalid_code', message: '登録コードが無効です' }) });
    expect(await handlers.enrol({ centralUrl: 'https://central.example', code: 'X' })).toEqual({ ok: false, reason: '登録コードが無効です' });
    expect(deps.settings.get().centralUrl).toBe('');
    expect(deps.settings.get().enrolment).toBeNull();
    const bad = setup();
    expect((await bad.handlers.enrol({ centralUrl: 'file:///x', code: 'X' })).ok).toBe(false);
    expect(bad.requests).toEqual([]);
  });
});
