import bwipjs from 'bwip-js/browser';
import type { Device, LabelField, LabelSize } from '../../../shared/api/schemas';

/** Label stock per size in millimetres (the same stock the server renders for). */
export const LABEL_MM: Record<LabelSize, { w: number; h: number }> = { s: { w: 50, h: 30 }, m: { w: 70, h: 40 }, l: { w: 100, h: 60 } };
export const SIZE_LABEL: Record<LabelSize, string> = { s: 'S（50×30mm）', m: 'M（70×40mm）', l: 'L（100×60mm）' };
export const FIELD_LABEL: Record<LabelField, string> = { mgmt: '管理番号', imei: 'IMEI', cust: '顧客名', model: '機種', qr: 'QRコード', barcode: 'バーコード（IMEI）' };

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function svg(bcid: 'code128' | 'qrcode', text: string): string {
  try {
    return bcid === 'code128' ? bwipjs.toSVG({ bcid, text, scale: 1, height: 8, includetext: false }) : bwipjs.toSVG({ bcid, text });
  } catch {
    return '';
  }
}

/** Self-contained HTML of one label (used for the preview and for printing). */
export function labelHtml(device: Device, size: LabelSize, fields: Record<LabelField, boolean>): string {
  const { w, h } = LABEL_MM[size];
  const fs = size === 's' ? 2.4 : size === 'm' ? 3 : 4;
  const qrMm = Math.min(h - 4, w * 0.38);
  const lines: string[] = [];
  if (fields.mgmt) lines.push(`<div style="font-size:${fs * 1.35}mm;font-weight:700">${esc(device.asset ?? '')}</div>`);
  if (fields.model) lines.push(`<div>${esc(device.model ?? '')}</div>`);
  if (fields.cust) lines.push(`<div style="overflow:hidden;text-overflow:ellipsis;white-space:nowrap">${esc(device.cust ?? '')}</div>`);
  if (fields.imei) lines.push(`<div style="font-family:monospace">IMEI ${esc(device.imei)}</div>`);
  if (fields.barcode) lines.push(`<div style="height:${h * 0.22}mm;margin-top:0.8mm">${svg('code128', device.imei).replace('<svg ', '<svg style="width:100%;height:100%" preserveAspectRatio="none" ')}</div>`);
  const qr = fields.qr
    ? `<div style="width:${qrMm}mm;height:${qrMm}mm;flex:none">${svg('qrcode', `IMEI:${device.imei};ASSET:${device.asset ?? ''};SN:${device.serial ?? ''}`).replace('<svg ', '<svg style="width:100%;height:100%" ')}</div>`
    : '';
  return `<div class="ks-label" style="width:${w}mm;height:${h}mm;box-sizing:border-box;padding:2mm;display:flex;gap:2mm;font-size:${fs}mm;line-height:1.25;color:#000;background:#fff;overflow:hidden;font-family:'Hiragino Sans','Noto Sans CJK JP','KS Noto Sans JP',sans-serif">${qr}<div style="flex:1;min-width:0;display:flex;flex-direction:column;justify-content:center">${lines.join('')}</div></div>`;
}

export function LabelPreview({ device, size, fields }: { device: Device; size: LabelSize; fields: Record<LabelField, boolean> }) {
  const { w, h } = LABEL_MM[size];
  const scale = Math.min(2.2, 380 / (w * 3.78));
  return (
    <div style={{ width: w * 3.78 * scale, height: h * 3.78 * scale }} data-testid="label-preview">
      <div style={{ transform: `scale(${scale})`, transformOrigin: '0 0', border: '1px solid #333', width: 'fit-content', boxShadow: '0 2px 8px rgba(0,0,0,.15)' }} dangerouslySetInnerHTML={{ __html: labelHtml(device, size, fields) }} />
    </div>
  );
}
