import { z } from 'zod';
import { jstDate, jstStamp } from '../shared/dates';
import type { LabelSize, PrintResult, StationBridge, VersionInfo } from '../shared/station-bridge';
import {
  certificatePrintOptions,
  htmlDataUrl,
  labelPrintOptions,
  listPrinters,
  printDocument,
  renderPdf,
  testCertificateHtml,
  testLabelHtml,
  type PrinterSource,
  type PrintWindow,
} from './printing';
import { serverReason, type ServerClient, type ServerResponse } from './server-client';
import { normalizeCentralUrl, SettingsError, type Settings } from './settings';
import { sendZpl, testZpl, ZPL_MAX_BYTES, ZPL_PORT } from './zpl';

export interface StationDeps {
  settings: Settings;
  server: ServerClient;
  printers: PrinterSource;
  createPrintWindow(): PrintWindow;
  /** Shows the save dialog; null when canceled. */
  chooseSavePath(defaultName: string): Promise<string | null>;
  writeFile(file: string, bytes: Uint8Array): Promise<void>;
  versions(): VersionInfo;
  /** Applies the start-at-login setting to the OS. */
  setStartAtLogin(open: boolean): void;
  sendZpl?: typeof sendZpl;
  now?: () => number;
  warn?: (line: string) => void;
}

/** Handlers take what the window sends: validate it as untrusted input. */
const size = z.enum(['s', 'm', 'l']);
const dim = z.number().finite().min(5).max(500);
const printer = z.string().max(200);
const html = z.string().min(1).max(5_000_000);
const appPath = z
  .string()
  .max(2000)
  .regex(/^\/(?!\/)[^\s]*$/, 'path must be a path of the app');

const schemas = {
  printLabel: z.object({
    html,
    widthMm: dim,
    heightMm: dim,
    printer: printer.optional(),
    copies: z.number().int().min(1).max(999).optional(),
    size: size.optional(),
    imei: z.string().max(40).optional(),
    asset: z.string().max(40).optional(),
  }),
  printZpl: z.object({
    zpl: z.string().min(1).max(ZPL_MAX_BYTES),
    host: z.string().max(253).optional(),
    port: z.number().int().min(1).max(65535).optional(),
    count: z.number().int().min(1).max(999).optional(),
    size: size.optional(),
  }),
  testPrint: z.enum(['label', 'zebra', 'certificate']),
  printCertificate: z
    .object({ html: html.optional(), path: appPath.optional(), printer: printer.optional() })
    .refine((v) => Boolean(v.html) !== Boolean(v.path), 'give exactly one of html or path'),
  savePdf: z
    .object({ html: html.optional(), path: appPath.optional(), fileName: z.string().min(1).max(120) })
    .refine((v) => Boolean(v.html) !== Boolean(v.path), 'give exactly one of html or path'),
  enrol: z.object({ centralUrl: z.string().min(1).max(300), code: z.string().trim().min(1).max(100) }),
};

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`invalid request: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  return r.data;
}

/** A file name safe on Windows and macOS, ending in .pdf. */
export function pdfFileName(name: string): string {
  const base = name.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_').replace(/\.pdf$/i, '').trim() || 'document';
  return `${base.slice(0, 100)}.pdf`;
}

/** Everything window.station does, over injected Electron pieces. */
export function createStationHandlers(deps: StationDeps): StationBridge {
  const now = deps.now ?? Date.now;
  const zpl = deps.sendZpl ?? sendZpl;
  const warn = deps.warn ?? ((line: string) => console.warn(line));

  /**
   * Every print job goes to the label print log of the bench ({size, count, date, ts, result}):
   * result 'ok', or 'failed' with the reason the printer gave (the reason also goes back to the window).
   */
  async function logLabelPrint(result: PrintResult, labelSize: LabelSize, copies: number, device: { imei?: string; asset?: string } = {}): Promise<void> {
    const ts = now();
    const outcome = result.ok ? { result: 'ok' } : { result: 'failed', reason: result.reason ?? '印刷に失敗しました' };
    const who = { ...(device.imei ? { imei: device.imei } : {}), ...(device.asset ? { asset: device.asset } : {}) };
    try {
      const res = await deps.server.request('POST', '/api/labels/log', { size: labelSize, count: copies, date: jstDate(ts), ts, ...outcome, ...who });
      if (res.status >= 400) warn(`label log not written: ${serverReason(res)}`);
    } catch (err) {
      warn(`label log not written: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async function printLabelHtml(doc: string, widthMm: number, heightMm: number, printerName: string, copies: number, labelSize: LabelSize, device: { imei?: string; asset?: string } = {}) {
    const result = await printDocument(deps.createPrintWindow, htmlDataUrl(doc), labelPrintOptions({ widthMm, heightMm, printer: printerName, copies }));
    await logLabelPrint(result, labelSize, copies, device);
    return result;
  }

  async function printZplJob(job: { zpl: string; host?: string; port?: number; count?: number; size?: LabelSize }) {
    const s = deps.settings.get();
    const result = await zpl({ zpl: job.zpl, host: job.host ?? s.zebra.host, port: job.port ?? (s.zebra.port || ZPL_PORT) });
    await logLabelPrint(result, job.size ?? s.label.size, job.count ?? 1);
    return result;
  }

  const documentUrl = (req: { html?: string; path?: string }) => (req.html ? htmlDataUrl(req.html) : deps.server.url + req.path);

  return {
    version: async () => deps.versions(),
    listPrinters: () => listPrinters(deps.printers),

    async printLabel(raw) {
      const req = parse(schemas.printLabel, raw);
      const s = deps.settings.get();
      return printLabelHtml(req.html, req.widthMm, req.heightMm, req.printer ?? s.labelPrinter, req.copies ?? 1, req.size ?? s.label.size, { imei: req.imei, asset: req.asset });
    },

    printZpl: async (raw) => printZplJob(parse(schemas.printZpl, raw)),

    async testPrint(raw) {
      const target = parse(schemas.testPrint, raw);
      const s = deps.settings.get();
      const stamp = jstStamp(now());
      if (target === 'zebra') return printZplJob({ zpl: testZpl(s.benchName, stamp) });
      if (target === 'certificate') {
        return printDocument(deps.createPrintWindow, htmlDataUrl(testCertificateHtml({ benchName: s.benchName, stamp })), certificatePrintOptions(s.certificatePrinter));
      }
      const { widthMm, heightMm, size: labelSize } = s.label;
      return printLabelHtml(testLabelHtml({ benchName: s.benchName, stamp, widthMm, heightMm }), widthMm, heightMm, s.labelPrinter, 1, labelSize);
    },

    async printCertificate(raw) {
      const req = parse(schemas.printCertificate, raw);
      return printDocument(deps.createPrintWindow, documentUrl(req), certificatePrintOptions(req.printer ?? deps.settings.get().certificatePrinter));
    },

    async savePdf(raw) {
      const req = parse(schemas.savePdf, raw);
      let bytes: Uint8Array;
      try {
        if (req.path) {
          const res = await deps.server.request('GET', req.path);
          if (res.status !== 200) return { ok: false, reason: serverReason(res) };
          if (!res.contentType.includes('application/pdf')) return { ok: false, reason: 'PDFではない応答が返されました' };
          bytes = res.bytes;
        } else {
          bytes = await renderPdf(deps.createPrintWindow, documentUrl(req));
        }
      } catch (err) {
        return { ok: false, reason: `PDFを作成できませんでした（${err instanceof Error ? err.message : String(err)}）` };
      }
      const file = await deps.chooseSavePath(pdfFileName(req.fileName));
      if (!file) return { ok: false, reason: 'canceled' };
      try {
        await deps.writeFile(file, bytes);
      } catch (err) {
        return { ok: false, reason: `保存できませんでした（${err instanceof Error ? err.message : String(err)}）` };
      }
      return { ok: true, file };
    },

    getSettings: async () => deps.settings.get(),

    async setSettings(patch) {
      const before = deps.settings.get();
      const after = deps.settings.update(patch);
      if (after.startAtLogin !== before.startAtLogin) deps.setStartAtLogin(after.startAtLogin);
      return after;
    },

    async enrol(raw) {
      const req = parse(schemas.enrol, raw);
      let centralUrl: string;
      try {
        centralUrl = normalizeCentralUrl(req.centralUrl);
      } catch (err) {
        if (err instanceof SettingsError) return { ok: false, reason: err.message };
        throw err;
      }
      if (!centralUrl) return { ok: false, reason: '中央サーバーのURLを入力してください' };
      let res: ServerResponse;
      try {
        res = await deps.server.request('POST', '/api/sync/enrol', { central: centralUrl, code: req.code, name: deps.settings.get().benchName });
      } catch (err) {
        return { ok: false, reason: `登録できませんでした（${err instanceof Error ? err.message : String(err)}）` };
      }
      if (res.status === 404 && res.body?.error === 'not_found') return { ok: false, reason: 'このバージョンのサーバーは作業台の登録に対応していません' };
      if (res.status >= 400 || res.body?.ok !== true) return { ok: false, reason: serverReason(res) };
      const workspace = typeof res.body.workspace === 'string' ? res.body.workspace : null;
      deps.settings.update({ centralUrl });
      const settings = deps.settings.setEnrolment({ centralUrl, enrolledAt: now(), workspace });
      return { ok: true, settings };
    },
  };
}
