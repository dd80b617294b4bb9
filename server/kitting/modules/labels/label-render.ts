import bwipjs from 'bwip-js/node';
import { bitmapToZpl, rasterizeText, type OutlineFont } from './zpl-bitmap';

import { LABEL_SIZES, type LabelSize } from '../../../../shared/api/contracts/certs-labels';

export { LABEL_SIZES, type LabelSize };

/** Physical label stock per size, in millimetres (width × height). */
const LABEL_MM: Record<LabelSize, { w: number; h: number }> = {
  s: { w: 50, h: 30 },
  m: { w: 70, h: 40 },
  l: { w: 100, h: 60 },
};

export interface LabelFields {
  mgmt: boolean;
  imei: boolean;
  cust: boolean;
  model: boolean;
  qr: boolean;
  barcode: boolean;
}

export interface LabelDevice {
  imei: string;
  asset: string;
  serial: string;
  model: string;
  cust: string;
}

/** What the QR code carries: enough to find the device in any ledger (a serial only when one was read). */
export function qrPayload(d: LabelDevice): string {
  return `IMEI:${d.imei};ASSET:${d.asset}${d.serial ? `;SN:${d.serial}` : ''}`;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** bwip-js SVG as a nested <svg> placed at x, y with the given size (all in mm). */
function placeSvg(svg: string, x: number, y: number, w: number, h: number, id: string): string {
  return svg.replace(/^<svg /, `<svg id="${id}" x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${w.toFixed(2)}" height="${h.toFixed(2)}" preserveAspectRatio="none" `);
}

function code128Svg(text: string): string {
  return bwipjs.toSVG({ bcid: 'code128', text, scale: 1, height: 10, includetext: false });
}

function qrSvg(text: string): string {
  // BWIPP's default error correction for QR is M (15 %).
  return bwipjs.toSVG({ bcid: 'qrcode', text });
}

interface TextLine {
  text: string;
  size: number;
  bold?: boolean;
  /** Never cut (the IMEI): shrink instead, however small. */
  exact?: boolean;
}

function lines(d: LabelDevice, f: LabelFields, base: number): TextLine[] {
  const out: TextLine[] = [];
  if (f.mgmt) out.push({ text: d.asset || '—', size: base * 1.35, bold: true });
  if (f.model) out.push({ text: d.model, size: base });
  if (f.cust) out.push({ text: d.cust, size: base });
  if (f.imei) out.push({ text: `IMEI ${d.imei}`, size: base * 0.9, exact: true });
  return out;
}

/** Width of a text in em: full-width (CJK) characters 1 em, others about 0.6 em. */
function ems(text: string): number {
  let w = 0;
  for (const ch of text) w += /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 1 : 0.6;
  return w;
}

/** Fit a line into `width` mm: shrink down to 60 % of its size, then cut with … (never an exact line). */
function fitLine(line: TextLine, width: number): { text: string; size: number } {
  const need = ems(line.text) * line.size;
  if (need <= width) return { text: line.text, size: line.size };
  if (line.exact) return { text: line.text, size: width / ems(line.text) };
  const size = Math.max(line.size * 0.6, width / ems(line.text));
  let text = line.text;
  while (text.length > 1 && ems(`${text}…`) * size > width) text = Array.from(text).slice(0, -1).join('');
  return { text: text === line.text ? text : `${text}…`, size };
}

/** The label as SVG whose user unit is one millimetre, sized to the label stock. */
export function renderLabelSvg(d: LabelDevice, f: LabelFields, size: LabelSize): string {
  const { w, h } = LABEL_MM[size];
  const pad = Math.max(2, h * 0.07);
  const qrSide = f.qr ? Math.min(h - pad * 2 - (f.barcode ? h * 0.3 : 0), w * 0.32) : 0;
  const textW = w - pad * 2 - (qrSide ? qrSide + pad : 0);
  const base = h / 11;
  const parts: string[] = [];
  let y = pad;
  for (const line of lines(d, f, base)) {
    const fitted = fitLine(line, textW);
    y += line.size;
    parts.push(
      `<text x="${pad.toFixed(2)}" y="${y.toFixed(2)}" font-size="${fitted.size.toFixed(2)}"${line.bold ? ' font-weight="700"' : ''}>${escapeXml(fitted.text)}</text>`,
    );
    y += line.size * 0.35;
  }
  if (f.qr) parts.push(placeSvg(qrSvg(qrPayload(d)), w - pad - qrSide, pad, qrSide, qrSide, 'qr'));
  if (f.barcode) {
    const bh = h * 0.24;
    parts.push(placeSvg(code128Svg(d.imei), pad + 1, h - pad - bh, w - pad * 2 - 2, bh, 'barcode'));
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}mm" height="${h}mm" viewBox="0 0 ${w} ${h}">`,
    `<rect width="${w}" height="${h}" fill="#fff"/>`,
    `<g font-family="'Noto Sans JP','Hiragino Sans','Yu Gothic',sans-serif" fill="#000">`,
    ...parts,
    '</g>',
    '</svg>',
  ].join('\n');
}

/** A printable page exactly the size of the label (print dialog: 100 %, no margins). */
export function renderLabelHtml(d: LabelDevice, f: LabelFields, size: LabelSize): string {
  const { w, h } = LABEL_MM[size];
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>ラベル ${escapeXml(d.asset || d.imei)}</title>
<style>@font-face{font-family:'Noto Sans JP';src:url('/api/labels/font.ttf') format('truetype')}@page{size:${w}mm ${h}mm;margin:0}html,body{margin:0;padding:0}svg{display:block;width:${w}mm;height:${h}mm}</style>
</head><body>
${renderLabelSvg(d, f, size)}
</body></html>`;
}

/** ZPL field data must not contain the command prefixes ^ and ~. */
function zplText(s: string): string {
  return s.replace(/[\^~\r\n]/g, ' ');
}

/** Text a stock Zebra printer prints with its resident font 0: printable ASCII only. */
function residentFontCan(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/**
 * The label in ZPL II for Zebra printers, at 203 or 300 dpi. ASCII lines use the resident font (small
 * labels); a line with any other character (Japanese names, —, …) is drawn from `font`, the font of the
 * SVG label, as a ^GFA bitmap at the printer's resolution, so a printer with no extra fonts prints it.
 */
export function renderLabelZpl(d: LabelDevice, f: LabelFields, size: LabelSize, dpi: 203 | 300, font: OutlineFont): string {
  const dpmm = dpi === 300 ? 12 : 8;
  const { w, h } = LABEL_MM[size];
  const dots = (mm: number) => Math.round(mm * dpmm);
  const pad = Math.max(2, h * 0.07);
  const qrSide = f.qr ? Math.min(h - pad * 2 - (f.barcode ? h * 0.3 : 0), w * 0.32) : 0;
  const out = ['^XA', '^CI28', `^PW${dots(w)}`, `^LL${dots(h)}`, '^LH0,0'];
  let y = pad;
  const textW = w - pad * 2 - (qrSide ? qrSide + pad : 0);
  for (const line of lines(d, f, h / 11)) {
    const fitted = fitLine(line, textW);
    if (residentFontCan(fitted.text)) {
      const size = Math.max(1, dots(fitted.size));
      out.push(`^FO${dots(pad)},${dots(y + line.size - fitted.size)}^A0N,${size},${size}^FD${zplText(fitted.text)}^FS`);
    } else {
      // same pen position, baseline and em size as the SVG's <text>
      const bitmap = rasterizeText(font, fitted.text, pad * dpmm, (y + line.size) * dpmm, fitted.size * dpmm, line.bold);
      if (bitmap) out.push(bitmapToZpl(bitmap));
    }
    y += line.size * 1.35;
  }
  if (f.qr) {
    const mag = Math.max(1, Math.min(10, Math.floor(dots(qrSide) / 33)));
    out.push(`^FO${dots(w - pad - qrSide)},${dots(pad)}^BQN,2,${mag}^FDMA,${zplText(qrPayload(d))}^FS`);
  }
  if (f.barcode) {
    const bh = h * 0.24;
    out.push(`^FO${dots(pad + 1)},${dots(h - pad - bh)}^BY2^BCN,${dots(bh)},N,N,N,A^FD${zplText(d.imei)}^FS`);
  }
  out.push('^PQ1', '^XZ');
  return `${out.join('\n')}\n`;
}
