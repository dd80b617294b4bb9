import { useEffect, useState } from 'react';
import { LABEL_FIELDS, type LabelField, type LabelSize } from '../../../shared/api/schemas';

/**
 * The label screen's preview and print documents. The layout is the server's (`label-render.ts`, the same
 * one the desktop ZPL path and GET /api/labels/render use): the window asks its server for the SVG instead
 * of drawing barcodes itself, so the layout exists once and no barcode encoder ships to the browser.
 */

/** Label stock per size in millimetres (the same stock the server renders for). */
export const LABEL_MM: Record<LabelSize, { w: number; h: number }> = { s: { w: 50, h: 30 }, m: { w: 70, h: 40 }, l: { w: 100, h: 60 } };
export const SIZE_LABEL: Record<LabelSize, string> = { s: 'S（50×30mm）', m: 'M（70×40mm）', l: 'L（100×60mm）' };
export const FIELD_LABEL: Record<LabelField, string> = { mgmt: '管理番号', imei: 'IMEI', cust: '顧客名', model: '機種', qr: 'QRコード', barcode: 'バーコード（IMEI）' };

/** GET /api/labels/render for one device, size and set of printed fields. */
function labelRenderUrl(imei: string, size: LabelSize, fields: Record<LabelField, boolean>): string {
  const on = LABEL_FIELDS.filter((f) => fields[f]).join(',');
  return `/api/labels/render?imei=${encodeURIComponent(imei)}&size=${size}&format=svg&fields=${on}`;
}

/** The label as SVG (millimetre units) from the server; throws with a Japanese reason when it cannot. */
export async function fetchLabelSvg(imei: string, size: LabelSize, fields: Record<LabelField, boolean>): Promise<string> {
  let res: Response;
  try {
    res = await fetch(labelRenderUrl(imei, size, fields), { credentials: 'same-origin' });
  } catch {
    throw new Error('サーバーに接続できません');
  }
  if (res.status === 404) throw new Error('台帳に登録されていない端末です');
  if (!res.ok) throw new Error(`ラベルを作成できませんでした（${res.status}）`);
  return res.text();
}

/** The preview: empty until a device is chosen, so what is shown is always what 印刷 prints. */
export function LabelPreview({ imei, size, fields }: { imei: string | null; size: LabelSize; fields: Record<LabelField, boolean> }) {
  const { w, h } = LABEL_MM[size];
  const scale = Math.min(2.2, 380 / (w * 3.78));
  const [svg, setSvg] = useState<{ key: string; svg?: string; error?: string } | null>(null);
  const key = imei ? labelRenderUrl(imei, size, fields) : '';
  useEffect(() => {
    if (!imei) return;
    let live = true;
    fetchLabelSvg(imei, size, fields).then(
      (s) => live && setSvg({ key, svg: s }),
      (e: unknown) => live && setSvg({ key, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const box = { width: w * 3.78 * scale, height: h * 3.78 * scale };
  if (!imei)
    return (
      <div className="label-empty" style={box} data-testid="label-preview" data-state="empty">
        端末のIMEIをスキャンまたは入力するとプレビューを表示します
      </div>
    );
  const cur = svg?.key === key ? svg : null;
  if (!cur?.svg)
    return (
      <div className="label-empty" style={box} data-testid="label-preview" data-state={cur?.error ? 'error' : 'loading'}>
        {cur?.error ?? '読み込み中…'}
      </div>
    );
  return (
    <div
      style={{ ...box, border: '1px solid #333', boxShadow: '0 2px 8px rgba(0,0,0,.15)', boxSizing: 'content-box' }}
      data-testid="label-preview"
      data-state="ready"
      data-imei={imei}
      dangerouslySetInnerHTML={{ __html: cur.svg.replace(/<svg /, '<svg style="display:block;width:100%;height:100%" ') }}
    />
  );
}
