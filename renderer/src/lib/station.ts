
import type { StationBridge } from '../../../shared/station-bridge';

export type { PrinterInfo } from '../../../shared/station-bridge';

/**
 * The desktop bridge the Electron preload exposes as `window.station` (printing).
 * In a plain browser it is absent and the UI falls back to the browser's print dialog.
 */
export function stationBridge(): StationBridge | null {
  if (typeof window === 'undefined' || !('station' in window)) return null;
  const s = (window as unknown as { station: unknown }).station;
  if (!s || typeof s !== 'object') return null;
  const b = s as Partial<StationBridge>;
  return typeof b.printLabel === 'function' && typeof b.printCertificate === 'function' ? (b as StationBridge) : null;
}

/**
 * The Japanese font for print documents: the server's TTF (GET /api/labels/font.ttf, the font its PDFs and
 * labels use), referenced by absolute URL so a print frame or the desktop's print window renders Japanese text
 * on a PC without Japanese system fonts. Declared under both names print documents use (the label SVG names
 * 'Noto Sans JP'). The UI itself uses the woff2 subsets and never downloads this file.
 */
function printFontCss(): string {
  const href = new URL('/api/labels/font.ttf', window.location.href).href;
  const face = (family: string) => `@font-face{font-family:'${family}';src:url('${href}') format('truetype');font-display:block}`;
  return `${face('KS Noto Sans JP')}${face('Noto Sans JP')}body{font-family:'KS Noto Sans JP',sans-serif}`;
}

/** Wrap a label's HTML with the font it needs (for the desktop bridge's print window). */
export function withPrintFont(html: string): string {
  return `<style>${printFontCss()}</style>${html}`;
}

/** Print HTML through a hidden iframe and the browser's print dialog, once the bundled font has loaded. */
export function browserPrint(html: string, widthMm: number, heightMm: number): void {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0';
  document.body.appendChild(frame);
  const doc = frame.contentDocument;
  if (!doc) return;
  doc.open();
  doc.write(`<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>@page{size:${widthMm}mm ${heightMm}mm;margin:0}body{margin:0}${printFontCss()}</style></head><body>${html}</body></html>`);
  doc.close();
  const go = () => {
    frame.contentWindow?.focus();
    frame.contentWindow?.print();
    setTimeout(() => frame.remove(), 1000);
  };
  const fonts = doc.fonts;
  if (fonts) void Promise.all([fonts.load("12px 'KS Noto Sans JP'", 'あ'), fonts.load("12px 'Noto Sans JP'", 'あ')]).then(go, go);
  else setTimeout(go, 50);
}
