import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api/client';
import { api, describeError } from '../api';
import { Chip, ErrorState, Loading, Panel, useLoad } from '../components/ui';
import { useScanHandler, type ScanHandler } from '../lib/scan-service';
import { playScanSound } from '../lib/sound';
import { DEFAULT_DEVICE_STATUS, DEVICE_STATUSES } from '../../../shared/devices';
import { MDM_OPTIONS, deviceBody, missingValues, type RegisterValues } from './ledger-register';
import { ScanField } from './ledger-scan';

type EntryState = 'waiting' | 'saving' | 'ok' | 'duplicate' | 'error' | 'undone';
interface Entry {
  seq: number;
  imei: string;
  state: EntryState;
  message: string;
  at: number;
}

const STATE_LABEL: Record<EntryState, { text: string; chip: string }> = {
  waiting: { text: '待機中', chip: 'c-gray' },
  saving: { text: '登録中…', chip: 'c-blue' },
  ok: { text: '登録しました', chip: 'c-green' },
  duplicate: { text: '登録済み（重複）', chip: 'c-orange' },
  error: { text: 'エラー', chip: 'c-red' },
  undone: { text: '取り消しました', chip: 'c-gray' },
};

function SetupForm({ initial, models, customers, onStart }: { initial: RegisterValues; models: string[]; customers: string[]; onStart: (v: RegisterValues) => void }) {
  const [f, setF] = useState(initial);
  const [problem, setProblem] = useState('');
  const set = (k: keyof RegisterValues) => (e: { target: { value: string } }) => setF((p) => ({ ...p, [k]: e.target.value }));
  return (
    <Panel title="入荷セッションの設定（最初に一度だけ）">
      <form
        className="form body"
        data-testid="receiving-setup"
        onSubmit={(e) => {
          e.preventDefault();
          const missing = missingValues(f);
          if (missing.length) return setProblem(`${missing.join('・')}を選んでください`);
          onStart(f);
        }}
      >
        <label htmlFor="rc-model">機種</label>
        <input id="rc-model" className="in" list="rc-models" value={f.model} maxLength={60} aria-required="true" placeholder="例: iPhone 15" onChange={set('model')} autoFocus />
        <datalist id="rc-models">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <label htmlFor="rc-cust">顧客</label>
        <input id="rc-cust" className="in" list="rc-custs" value={f.cust} maxLength={60} aria-required="true" placeholder="顧客名" onChange={set('cust')} />
        <datalist id="rc-custs">
          {customers.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <label htmlFor="rc-mdm">MDM</label>
        <select id="rc-mdm" className="in" value={f.mdm} onChange={set('mdm')} aria-required="true">
          <option value="">選択してください</option>
          {MDM_OPTIONS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <label htmlFor="rc-loc">保管場所</label>
        <input id="rc-loc" className="in" value={f.loc} maxLength={120} placeholder="例: 入荷棚1" onChange={set('loc')} />
        <label htmlFor="rc-status">状態</label>
        <select id="rc-status" className="in" value={f.status} onChange={set('status')}>
          {DEVICE_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        <span />
        <div className="row">
          <button className="btn primary" type="submit" data-testid="receiving-start">
            スキャンを開始（Enter）
          </button>
          {problem && (
            <span role="alert" style={{ color: 'var(--danger)', fontWeight: 600 }}>
              {problem}
            </span>
          )}
        </div>
      </form>
    </Panel>
  );
}

/**
 * 入荷セッション: model, customer, MDM and location are chosen once; from then on every scan of a
 * new IMEI registers a device at once. Scans queue (none is lost while one is saving), each
 * result is listed, and the last one is shown large with a sound for ok / duplicate / error.
 */
export function ReceivingScreen() {
  const ledger = useLoad(() => api.devices());
  const custs = useLoad(() => api.customers().catch(() => ({ customers: [] })));
  const [values, setValues] = useState<RegisterValues | null>(null);
  const [setupOpen, setSetupOpen] = useState(true);
  const [entries, setEntries] = useState<Entry[]>([]);
  const known = useRef<Set<string> | null>(null);
  const queue = useRef<Entry[]>([]);
  const working = useRef(false);
  const seq = useRef(0);
  // IMEIs this session has queued, is saving or has registered (scans can arrive between renders).
  const active = useRef(new Set<string>());
  const valuesRef = useRef(values);
  valuesRef.current = values;

  if (ledger.data && !known.current) known.current = new Set(ledger.data.devices.map((d) => d.imei));
  const models = useMemo(() => [...new Set((ledger.data?.devices ?? []).map((d) => d.model ?? '').filter(Boolean))].sort(), [ledger.data]);
  const customers = useMemo(
    () => [...new Set([...(custs.data?.customers ?? []).map((c) => c.name), ...(ledger.data?.devices ?? []).map((d) => d.cust ?? '')].filter(Boolean))].sort((a, b) => a.localeCompare(b, 'ja')),
    [custs.data, ledger.data],
  );

  const update = (s: number, patch: Partial<Entry>) => setEntries((l) => l.map((e) => (e.seq === s ? { ...e, ...patch } : e)));
  const add = (e: Omit<Entry, 'seq' | 'at'>): Entry => {
    const entry = { ...e, seq: ++seq.current, at: Date.now() };
    setEntries((l) => [entry, ...l]);
    return entry;
  };

  const work = async () => {
    if (working.current) return;
    working.current = true;
    try {
      for (let next = queue.current.shift(); next; next = queue.current.shift()) {
        const v = valuesRef.current;
        if (!v) break;
        update(next.seq, { state: 'saving', message: '登録中…' });
        try {
          await api.createDevice(deviceBody(next.imei, v));
          known.current?.add(next.imei);
          update(next.seq, { state: 'ok', message: `${v.model}・${v.cust} として登録しました` });
          playScanSound('ok');
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) {
            known.current?.add(next.imei);
            active.current.delete(next.imei);
            update(next.seq, { state: 'duplicate', message: 'すでに台帳に登録されています' });
            playScanSound('duplicate');
          } else {
            active.current.delete(next.imei);
            update(next.seq, { state: 'error', message: describeError(err) });
            playScanSound('error');
          }
        }
      }
    } finally {
      working.current = false;
    }
  };

  const onScan: ScanHandler = (scan) => {
    if (scan.kind !== 'imei') {
      add({ imei: scan.value, state: 'error', message: scan.message });
      playScanSound('error');
      return;
    }
    const imei = scan.value;
    const inSession = active.current.has(imei);
    if (known.current?.has(imei) || inSession) {
      add({ imei, state: 'duplicate', message: inSession ? 'このセッションでスキャン済みです' : 'すでに台帳に登録されています' });
      playScanSound('duplicate');
      return;
    }
    active.current.add(imei);
    const entry = add({ imei, state: 'waiting', message: '登録待ち' });
    queue.current.push(entry);
    if (valuesRef.current && !setupOpen) void work();
  };
  useScanHandler(onScan);

  const undo = async () => {
    const last = entries.find((e) => e.state === 'ok');
    if (!last) return;
    try {
      await api.deleteDevice(last.imei);
      known.current?.delete(last.imei);
      active.current.delete(last.imei);
      update(last.seq, { state: 'undone', message: '登録を取り消しました（台帳から削除）' });
    } catch (err) {
      update(last.seq, { message: `取り消せませんでした: ${describeError(err)}` });
      playScanSound('error');
    }
  };
  useEffect(() => {
    const k = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z' && !(e.target as HTMLElement).closest?.('input:not([data-scan-input]), textarea')) {
        e.preventDefault();
        void undo();
      }
    };
    window.addEventListener('keydown', k);
    return () => window.removeEventListener('keydown', k);
  });

  if (ledger.error && !ledger.data) return <ErrorState error={ledger.error} what="端末台帳" onRetry={ledger.reload} />;
  if (!ledger.data) return <Loading what="端末台帳" />;

  const okCount = entries.filter((e) => e.state === 'ok').length;
  const pending = entries.filter((e) => e.state === 'waiting' || e.state === 'saving').length;
  const last = entries[0];
  const start = (v: RegisterValues) => {
    setValues(v);
    valuesRef.current = v;
    setSetupOpen(false);
    void work();
  };

  return (
    <>
      {setupOpen || !values ? (
        <SetupForm initial={values ?? { model: '', cust: '', mdm: '', status: DEFAULT_DEVICE_STATUS, loc: '' }} models={models} customers={customers} onStart={start} />
      ) : (
        <div className="scanbar" data-testid="receiving-values">
          <strong>入荷設定</strong>
          <span>
            {values.model} ／ {values.cust} ／ MDM: {values.mdm} ／ {values.loc || '保管場所なし'} ／ {values.status}
          </span>
          <span className="spacer" style={{ flex: 1 }} />
          <button className="btn small" onClick={() => setSetupOpen(true)}>
            設定を変更
          </button>
        </div>
      )}
      {!setupOpen && values && (
        <div className="scanbar">
          <label htmlFor="scan" style={{ fontWeight: 700 }}>
            スキャン
          </label>
          <ScanField placeholder="IMEIをスキャン（キー入力してEnterでも可）" />
          <button className="btn" onClick={() => void undo()} disabled={!entries.some((e) => e.state === 'ok')} data-testid="receiving-undo">
            直前の登録を取り消す（Ctrl+Z）
          </button>
        </div>
      )}
      <section className={`last-scan ${last ? `s-${last.state}` : ''}`} data-testid="last-scan" aria-live="polite" data-state={last?.state ?? ''}>
        <div className="count" data-testid="receiving-count">
          登録 <b>{okCount}</b> 台{pending ? <small>（処理中 {pending}）</small> : null}
        </div>
        {last ? (
          <>
            <div className="imei mono" data-testid="last-imei">
              {last.imei || '（空）'}
            </div>
            <div className="result" data-testid="last-result">
              {STATE_LABEL[last.state].text}: {last.message}
            </div>
          </>
        ) : (
          <div className="result">{setupOpen ? '設定を選んで「スキャンを開始」を押してください。' : 'IMEIをスキャンしてください。どの画面でもスキャンは受け付けます。'}</div>
        )}
      </section>
      <Panel title={`スキャン結果（${entries.length}件）`}>
        {entries.length === 0 ? (
          <div className="state">まだスキャンはありません</div>
        ) : (
          <table className="t" data-testid="receiving-results">
            <tbody>
              {entries.map((e) => (
                <tr key={e.seq} data-state={e.state}>
                  <td className="num" style={{ width: 48 }}>
                    {e.seq}
                  </td>
                  <td className="mono" style={{ width: 160 }}>
                    {e.imei}
                  </td>
                  <td style={{ width: 140 }}>
                    <Chip c={STATE_LABEL[e.state].chip}>{STATE_LABEL[e.state].text}</Chip>
                  </td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
    </>
  );
}
