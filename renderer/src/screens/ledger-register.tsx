import { useState } from 'react';
import type { Device } from '../../../shared/api/schemas';
import { DEVICE_STATUSES, RECEIVED_STATUS } from '../../../shared/devices';
import { api } from '../api';
import { Modal, toast, toastError } from '../components/ui';
import { deviceBody, MDM_OPTIONS, missingValues, type RegisterValues } from '../lib/register-values';

/** The values last chosen on this bench, offered (visibly) for the next device. */
let lastValues: RegisterValues = { model: '', cust: '', mdm: '', status: RECEIVED_STATUS, loc: '' };

/**
 * Register scanned IMEIs one after another (queue[0] is shown; later scans wait in the queue),
 * or many generated devices at once (bulk). Nothing is defaulted silently: model, customer and
 * MDM must be chosen. Enter registers.
 */
export function RegisterModal({
  queue,
  bulk,
  customers,
  models,
  onClose,
  onCreated,
  onSkip,
}: {
  queue: string[];
  bulk: boolean;
  customers: string[];
  models: string[];
  onClose: () => void;
  onCreated: (d: Device[]) => void;
  onSkip: (imei: string) => void;
}) {
  const imei = queue[0] ?? '';
  const [f, setF] = useState<RegisterValues & { qty: string }>({ ...lastValues, qty: '10' });
  const [problem, setProblem] = useState('');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((p) => ({ ...p, [k]: e.target.value }));
  const run = async () => {
    const missing = missingValues(f);
    if (missing.length) return setProblem(`${missing.join('・')}を選んでください`);
    setProblem('');
    lastValues = { model: f.model, cust: f.cust, mdm: f.mdm, status: f.status, loc: f.loc };
    setBusy(true);
    try {
      if (!bulk) {
        const { device } = await api.createDevice(deviceBody(imei, f));
        toast(`${device.imei} を登録しました`);
        onCreated([device]);
        return;
      }
      const qty = Math.trunc(Number(f.qty));
      if (!Number.isFinite(qty) || qty < 1 || qty > 10000) return setProblem('台数は1〜10,000で入力してください');
      const all: Device[] = [];
      setProgress({ done: 0, total: qty });
      const base = deviceBody('', f);
      for (let done = 0; done < qty; ) {
        const n = Math.min(100, qty - done);
        const r = await api.bulkDevices({ qty: n, model: base.model, cust: base.cust, mdm: base.mdm, status: base.status });
        all.push(...r.created);
        done += r.count;
        setProgress({ done, total: qty });
      }
      toast(`${all.length}台を一括登録しました`);
      onCreated(all);
    } catch (e) {
      setProgress(null);
      toastError(e, '登録できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={bulk ? '一括登録' : '未登録の端末を登録'}
      onClose={() => !progress && onClose()}
      footer={
        <>
          {!bulk && queue.length > 1 && (
            <button className="btn" type="button" onClick={() => onSkip(imei)} disabled={busy}>
              この端末を登録しない
            </button>
          )}
          <button className="btn" type="button" onClick={onClose} disabled={!!progress}>
            {!bulk && queue.length > 1 ? `すべて閉じる（${queue.length}件）` : 'キャンセル'}
          </button>
          <button className="btn primary" type="submit" form="rg-form" data-testid="register-submit" disabled={busy}>
            {bulk ? '一括登録する' : '登録する（Enter）'}
          </button>
        </>
      }
    >
      <form
        id="rg-form"
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        {!bulk && (
          <>
            <label>IMEI</label>
            <div className="mono" style={{ fontSize: 15 }} data-testid="register-imei">
              {imei}
              {queue.length > 1 && <span className="chip c-orange" style={{ marginLeft: 8 }}>ほか {queue.length - 1}件のスキャンが待機中</span>}
            </div>
          </>
        )}
        {bulk && (
          <>
            <label htmlFor="rg-qty">台数</label>
            <input id="rg-qty" className="in" type="number" min={1} max={10000} value={f.qty} onChange={set('qty')} />
          </>
        )}
        <label htmlFor="rg-model">機種</label>
        <input id="rg-model" className="in" list="rg-models" value={f.model} maxLength={60} aria-required="true" placeholder="例: iPhone 15" onChange={set('model')} autoFocus />
        <datalist id="rg-models">
          {models.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <label htmlFor="rg-cust">顧客</label>
        <input id="rg-cust" className="in" list="rg-custs" value={f.cust} maxLength={60} aria-required="true" placeholder="顧客名（社内の検証機は「社内検証機」）" onChange={set('cust')} />
        <datalist id="rg-custs">
          {customers.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <label htmlFor="rg-mdm">MDM</label>
        <select id="rg-mdm" className="in" value={f.mdm} onChange={set("mdm")} aria-required="true">
          <option value="">選択してください</option>
          {MDM_OPTIONS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <label htmlFor="rg-status">状態</label>
        <select id="rg-status" className="in" value={f.status} onChange={set('status')}>
          {DEVICE_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        {!bulk && (
          <>
            <label htmlFor="rg-loc">保管場所</label>
            <input id="rg-loc" className="in" value={f.loc} maxLength={120} onChange={set('loc')} />
          </>
        )}
        {problem && (
          <div role="alert" className="msg bad" style={{ gridColumn: '1 / -1', color: 'var(--danger)' }}>
            {problem}
          </div>
        )}
      </form>
      {!bulk && (
        <p className="muted" style={{ marginTop: 10 }}>
          続けて何台も登録するときは <a href="#/receiving">入荷セッション</a> を使うと、1台ごとの確認なしで登録できます。
        </p>
      )}
      {progress && (
        <div style={{ marginTop: 12 }} data-testid="bulk-progress">
          <div className="progress">
            <div style={{ width: `${(progress.done / progress.total) * 100}%` }} />
          </div>
          <div className="muted" style={{ marginTop: 4 }}>
            登録中… {progress.done.toLocaleString()} / {progress.total.toLocaleString()} 台
          </div>
        </div>
      )}
    </Modal>
  );
}
