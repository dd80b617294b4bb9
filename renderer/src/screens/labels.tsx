import { useEffect, useMemo, useState } from 'react';
import { LABEL_FIELDS, type Device, type LabelField, type LabelSize, type LabelTemplate } from '../../../shared/api/schemas';
import { api } from '../api';
import { Async, activateOnKey, Panel, confirmAction, fmtTs, toast, toastError, todayJst, useLoad } from '../components/ui';
import { parseScan } from '../lib/scan';
import { useScanHandler } from '../lib/scan-service';
import { playScanSound } from '../lib/sound';
import { browserPrint, stationBridge, withPrintFont, type PrinterInfo } from '../lib/station';
import { FIELD_LABEL, LABEL_MM, LabelPreview, SIZE_LABEL, fetchLabelSvg } from './label-view';

const allOn = (): Record<LabelField, boolean> => ({ mgmt: true, imei: true, cust: true, model: true, qr: true, barcode: true });
/** 結果 of a print log entry: the printer took it, the browser's dialog got it (its outcome is unknown), or it failed. */
const RESULT_LABEL: Record<string, string> = { ok: 'プリンター受付', sent: '送信済' };

export function LabelsScreen() {
  const templates = useLoad(() => api.labelTemplates());
  const log = useLoad(() => api.labelLog());
  const devices = useLoad(() => api.devices());
  const [tplId, setTplId] = useState<string | null>(null);
  const [name, setName] = useState('標準ラベル');
  const [size, setSize] = useState<LabelSize>('m');
  const [fields, setFields] = useState<Record<LabelField, boolean>>(allOn);
  const [imeiInput, setImeiInput] = useState('');
  const [count, setCount] = useState(1);
  const [printers, setPrinters] = useState<PrinterInfo[]>([]);
  const [printer, setPrinter] = useState('');
  const bridge = stationBridge();

  useEffect(() => {
    if (!bridge) return;
    bridge
      .listPrinters()
      .then((p) => {
        setPrinters(p);
        setPrinter(p.find((x) => x.isDefault)?.name ?? p[0]?.name ?? '');
      })
      .catch(() => setPrinters([]));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The device whose label is previewed and printed: none until one is scanned or typed (never a stand-in).
  const chosen = useMemo((): { device: Device | null; note: string } => {
    const r = parseScan(imeiInput);
    if (r.kind === 'empty') return { device: null, note: '' };
    if (r.kind !== 'imei') return { device: null, note: r.message };
    const d = devices.data?.devices.find((x) => x.imei === r.value);
    return d ? { device: d, note: '' } : { device: null, note: devices.data ? `${r.value} は台帳に登録されていません` : '台帳を読み込み中…' };
  }, [devices.data, imeiInput]);
  const device = chosen.device;
  // A scan on this screen (whatever field has focus) chooses the label's device.
  useScanHandler((scan) => {
    setImeiInput(scan.value);
    if (scan.kind !== 'imei') playScanSound('error');
  });

  const load = (t: LabelTemplate) => {
    setTplId(t.id);
    setName(t.name ?? '');
    setSize((['s', 'm', 'l'].includes(t.size ?? '') ? t.size : 'm') as LabelSize);
    setFields({ ...allOn(), ...(t.fields ?? {}) } as Record<LabelField, boolean>);
  };
  const save = async (asNew: boolean) => {
    try {
      const { template } = await api.saveLabelTemplate({ ...(tplId && !asNew ? { id: tplId } : {}), name: name || 'ラベル', size, fields, ts: Date.now() });
      templates.setData((d) => d && { ...d, templates: [...d.templates.filter((t) => t.id !== template.id), template] });
      setTplId(template.id);
      toast('テンプレートを保存しました');
    } catch (e) {
      toastError(e, '保存できませんでした');
    }
  };
  const remove = async (t: LabelTemplate) => {
    if (!(await confirmAction(`テンプレート「${t.name}」を削除します。よろしいですか？`))) return;
    try {
      await api.deleteLabelTemplate(t.id);
      templates.setData((d) => d && { ...d, templates: d.templates.filter((x) => x.id !== t.id) });
      if (tplId === t.id) setTplId(null);
    } catch (e) {
      toastError(e, '削除できませんでした');
    }
  };
  const print = async () => {
    if (!device) return toast('先に端末のIMEIをスキャンしてください', true);
    const n = Math.max(1, Math.min(1000, Math.trunc(count) || 1));
    const { w, h } = LABEL_MM[size];
    const who = { imei: device.imei, ...(device.asset ? { asset: device.asset } : {}) };
    try {
      const one = await fetchLabelSvg(device.imei, size, fields);
      if (bridge) {
        // The desktop app writes the print log itself (with the printer's outcome).
        const r = await bridge.printLabel({ html: withPrintFont(one), widthMm: w, heightMm: h, printer: printer || undefined, copies: n, size, ...who });
        log.reload();
        if (!r.ok) return toast(`印刷できませんでした: ${r.reason ?? '不明なエラー'}`, true);
        return toast(`${device.asset || device.imei} のラベル ${n}枚をプリンターへ送信しました`);
      }
      browserPrint(Array.from({ length: n }, () => `<div style="page-break-after:always">${one}</div>`).join(''), w, h);
      const { entry } = await api.addLabelLog({ size, count: n, date: todayJst(), ts: Date.now(), result: 'sent', ...who });
      log.setData((d) => d && { ...d, log: [entry, ...d.log] });
      toast(`${device.asset || device.imei} のラベル ${n}枚を印刷ダイアログへ送信しました`);
    } catch (e) {
      toastError(e, '印刷できませんでした');
    }
  };

  return (
    <>
      <div className="grid3" style={{ gridTemplateColumns: '260px 1fr 1fr' }}>
        <Panel title="テンプレート" actions={<button className="btn small" onClick={() => { setTplId(null); setName('新しいラベル'); setSize('m'); setFields(allOn()); }}>＋ 新規</button>}>
          <Async state={templates} what="テンプレート">
            {(d) =>
              d.templates.length === 0 ? (
                <div className="state">保存済みのテンプレートはありません</div>
              ) : (
                <table className="t">
                  <tbody>
                    {d.templates.map((t) => (
                      <tr key={t.id} className="clickable" {...activateOnKey(() => load(t), t.id === tplId)} style={t.id === tplId ? { background: '#ddf4ff' } : undefined}>
                        <td>{t.name}</td>
                        <td className="muted">{(t.size ?? 'm').toUpperCase()}</td>
                        <td style={{ textAlign: 'right' }} onClick={(e) => e.stopPropagation()}>
                          <button className="btn small danger" onClick={() => void remove(t)}>
                            削除
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )
            }
          </Async>
        </Panel>
        <Panel title={tplId ? 'テンプレートを編集' : '新しいテンプレート'}>
          <div className="body form">
            <label htmlFor="lb-name">名前</label>
            <input id="lb-name" className="in" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
            <label>サイズ</label>
            <div className="row">
              {(['s', 'm', 'l'] as const).map((s) => (
                <label key={s} style={{ display: 'inline-flex', gap: 4, color: 'inherit', fontSize: 13 }}>
                  <input type="radio" name="lb-size" checked={size === s} onChange={() => setSize(s)} />
                  {SIZE_LABEL[s]}
                </label>
              ))}
            </div>
            <label>印字項目</label>
            <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 4 }}>
              {LABEL_FIELDS.map((f) => (
                <label key={f} style={{ display: 'inline-flex', gap: 4, color: 'inherit', fontSize: 13 }}>
                  <input type="checkbox" checked={fields[f]} onChange={(e) => setFields((p) => ({ ...p, [f]: e.target.checked }))} />
                  {FIELD_LABEL[f]}
                </label>
              ))}
            </div>
            <span />
            <div className="row">
              <button className="btn primary" onClick={() => void save(false)} data-testid="label-save">
                保存
              </button>
              {tplId && (
                <button className="btn" onClick={() => void save(true)}>
                  別名で保存
                </button>
              )}
            </div>
          </div>
        </Panel>
        <Panel title="プレビューと印刷">
          <div className="body" style={{ display: 'grid', gap: 10 }}>
            <div className="row">
              <input className="in mono" placeholder="端末のIMEIをスキャン" value={imeiInput} onChange={(e) => setImeiInput(e.target.value)} aria-label="プレビュー端末のIMEI" style={{ width: 220 }} />
              <span className="muted" data-testid="label-device">
                {device ? `${device.asset || '管理番号なし'}・${device.model ?? ''}` : chosen.note}
              </span>
            </div>
            <LabelPreview imei={device?.imei ?? null} size={size} fields={fields} />
            <div className="row">
              {bridge && printers.length > 0 && (
                <select className="in" value={printer} onChange={(e) => setPrinter(e.target.value)} aria-label="プリンター">
                  {printers.map((p) => (
                    <option key={p.name} value={p.name}>{p.displayName || p.name}</option>
                  ))}
                </select>
              )}
              <input className="in" type="number" min={1} max={1000} value={count} onChange={(e) => setCount(Number(e.target.value))} style={{ width: 70 }} aria-label="枚数" />
              枚
              <button className="btn primary" onClick={() => void print()} disabled={!device}>
                印刷
              </button>
              <span className="muted">{bridge ? 'ラベルプリンターへ直接送信' : 'ブラウザの印刷ダイアログを開きます'}</span>
            </div>
          </div>
        </Panel>
      </div>
      <Panel title="印刷履歴">
        <Async state={log} what="印刷履歴">
          {(d) =>
            d.log.length === 0 ? (
              <div className="state">印刷履歴はありません</div>
            ) : (
              <table className="t">
                <thead>
                  <tr>
                    <th>日時</th>
                    <th>日付</th>
                    <th>端末</th>
                    <th>サイズ</th>
                    <th className="num">枚数</th>
                    <th>結果</th>
                  </tr>
                </thead>
                <tbody>
                  {d.log.slice(0, 100).map((l) => (
                    <tr key={l.id} data-result={l.result ?? 'ok'}>
                      <td>{fmtTs(l.ts)}</td>
                      <td>{l.date}</td>
                      <td>{l.imei ? `${l.asset ? `${l.asset} ` : ''}${l.imei}` : '（記録なし）'}</td>
                      <td>{(l.size ?? '').toUpperCase()}</td>
                      <td className="num">{l.count}</td>
                      <td>{l.result === 'failed' ? <span className="chip c-red" title={l.reason}>失敗: {l.reason}</span> : (RESULT_LABEL[l.result ?? 'ok'] ?? l.result)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Async>
      </Panel>
    </>
  );
}
