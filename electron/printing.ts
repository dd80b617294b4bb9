import type { PrinterInfo, PrintResult } from '../shared/station-bridge';

/** Electron's WebContentsPrintOptions, the fields this app sets. */
export interface PrintOptions {
  silent: boolean;
  deviceName?: string;
  printBackground: boolean;
  copies?: number;
  margins: { marginType: 'none' | 'default' };
  pageSize: { width: number; height: number } | 'A4';
  landscape?: boolean;
}

export interface PrintableContents {
  loadURL(url: string): Promise<void>;
  print(options: PrintOptions, callback: (success: boolean, failureReason: string) => void): void;
  printToPDF(options: { pageSize: 'A4'; printBackground: boolean }): Promise<Uint8Array>;
}

/** A hidden window made for one job and destroyed after it. */
export interface PrintWindow {
  webContents: PrintableContents;
  destroy(): void;
}

export interface PrinterSource {
  getPrintersAsync(): Promise<Array<{ name: string; displayName: string; description: string; isDefault?: boolean; options?: object }>>;
}

const mmToMicrons = (mm: number): number => Math.round(mm * 1000);

export function htmlDataUrl(html: string): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export async function listPrinters(source: PrinterSource): Promise<PrinterInfo[]> {
  const printers = await source.getPrintersAsync();
  return printers.map((p) => ({
    name: p.name,
    displayName: p.displayName || p.name,
    description: p.description ?? '',
    isDefault: Boolean(p.isDefault ?? (p.options as Record<string, unknown> | undefined)?.['is-default'] === 'true'),
  }));
}

/** Silent print of one label: explicit page size in microns, no margins, to the named printer. */
export function labelPrintOptions(job: { widthMm: number; heightMm: number; printer: string; copies: number }): PrintOptions {
  return {
    silent: true,
    ...(job.printer ? { deviceName: job.printer } : {}),
    printBackground: true,
    copies: job.copies,
    margins: { marginType: 'none' },
    pageSize: { width: mmToMicrons(job.widthMm), height: mmToMicrons(job.heightMm) },
  };
}

/** A4 certificate: silent to the named printer, else the system print dialog. */
export function certificatePrintOptions(printer: string): PrintOptions {
  return {
    silent: Boolean(printer),
    ...(printer ? { deviceName: printer } : {}),
    printBackground: true,
    margins: { marginType: 'default' },
    pageSize: 'A4',
  };
}

function failure(reason: string): string {
  if (!reason) return '印刷に失敗しました';
  if (/cancel/i.test(reason)) return '印刷がキャンセルされました';
  if (/invalid deviceName|no printers/i.test(reason)) return `プリンターが見つかりません（${reason}）`;
  return `印刷に失敗しました（${reason}）`;
}

/** Load a document into a fresh hidden window and print it; the window is always destroyed. */
export async function printDocument(createWindow: () => PrintWindow, url: string, options: PrintOptions): Promise<PrintResult> {
  const win = createWindow();
  try {
    await win.webContents.loadURL(url);
    return await new Promise<PrintResult>((resolve) => {
      win.webContents.print(options, (success, reason) => resolve(success ? { ok: true } : { ok: false, reason: failure(reason) }));
    });
  } catch (err) {
    return { ok: false, reason: `印刷用の文書を開けませんでした（${err instanceof Error ? err.message : String(err)}）` };
  } finally {
    win.destroy();
  }
}

/** Render a document to an A4 PDF in a hidden window. */
export async function renderPdf(createWindow: () => PrintWindow, url: string): Promise<Uint8Array> {
  const win = createWindow();
  try {
    await win.webContents.loadURL(url);
    return await win.webContents.printToPDF({ pageSize: 'A4', printBackground: true });
  } finally {
    win.destroy();
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The test label: bench name, time and size, framed to the label's edges to check alignment. */
export function testLabelHtml(opts: { benchName: string; stamp: string; widthMm: number; heightMm: number }): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>
@page { size: ${opts.widthMm}mm ${opts.heightMm}mm; margin: 0 }
html, body { margin: 0; padding: 0 }
.l { box-sizing: border-box; width: ${opts.widthMm}mm; height: ${opts.heightMm}mm; border: 0.4mm solid #000; padding: 2mm;
  font: 9pt/1.3 "Hiragino Sans", "Yu Gothic", "Noto Sans CJK JP", sans-serif; overflow: hidden }
b { font-size: 11pt }
</style></head><body><div class="l"><b>テスト印刷</b><br>Kitting Station<br>${escapeHtml(opts.benchName || '作業台')}<br>${escapeHtml(opts.stamp)}<br>${opts.widthMm}×${opts.heightMm}mm</div></body></html>`;
}

export function testCertificateHtml(opts: { benchName: string; stamp: string }): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>
body { font: 12pt/1.6 "Hiragino Sans", "Yu Gothic", "Noto Sans CJK JP", sans-serif; margin: 0 }
h1 { font-size: 18pt }
</style></head><body><h1>テスト印刷（証明書プリンター）</h1><p>Kitting Station — ${escapeHtml(opts.benchName || '作業台')}</p><p>${escapeHtml(opts.stamp)}</p><p>A4 縦・余白標準で印刷されていれば正常です。</p></body></html>`;
}
