import { useEffect, useMemo, useState } from 'react';
import { api } from '../api';
import { Chip, ErrorState, Loading, Panel, confirmAction, useLoad } from '../components/ui';
import { useScanHandler } from '../lib/scan-service';
import { DEVICE_STATUSES } from '../../../shared/devices';
import { MDM_OPTIONS, missingValues, type RegisterValues } from '../lib/register-values';
import { ScanField } from './ledger-scan';
import { RECEIVED_STATUS, clearSession, openSetup, receiveScan, setKnown, startSession, undoLast, useReceivingSession, type EntryState } from './receiving-session';

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
        // Enter starts the session from any field, the selects included (where Enter would open the list).
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || e.nativeEvent.isComposing || !(e.target instanceof HTMLSelectElement)) return;
          e.preventDefault();
          e.currentTarget.requestSubmit();
        }}
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
  const { values, setupOpen, entries } = useReceivingSession();

  useEffect(() => {
    if (ledger.data) setKnown(ledger.data.devices.map((d) => d.imei));
  }, [ledger.data]);
  const models = useMemo(() => [...new Set((ledger.data?.devices ?? []).map((d) => d.model ?? '').filter(Boolean))].sort(), [ledger.data]);
  const customers = useMemo(
    () => [...new Set([...(custs.data?.customers ?? []).map((c) => c.name), ...(ledger.data?.devices ?? []).map((d) => d.cust ?? '')].filter(Boolean))].sort((a, b) => a.localeCompare(b, 'ja')),
    [custs.data, ledger.data],
  );

  useScanHandler(receiveScan);
  useEffect(() => {
    const k = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z' && !(e.target as HTMLElement).closest?.('input:not([data-scan-input]), textarea')) {
        e.preventDefault();
        void undoLast();
      }
    };
    window.addEventListener('keydown', k);
    return () => window.removeEventListener('keydown', k);
  }, []);
  const end = async () => {
    if (!(await confirmAction('入荷セッションを終了し、設定とスキャン結果の一覧を消去します（台帳に登録した端末はそのまま残ります）。よろしいですか？', '終了する'))) return;
    clearSession();
  };

  if (ledger.error && !ledger.data) return <ErrorState error={ledger.error} what="端末台帳" onRetry={ledger.reload} />;
  if (!ledger.data) return <Loading what="端末台帳" />;

  const okCount = entries.filter((e) => e.state === 'ok').length;
  const pending = entries.filter((e) => e.state === 'waiting' || e.state === 'saving').length;
  const last = entries[0];
  const start = (v: RegisterValues) => startSession(v);

  return (
    <>
      {setupOpen || !values ? (
        <SetupForm initial={values ?? { model: '', cust: '', mdm: '', status: RECEIVED_STATUS, loc: '' }} models={models} customers={customers} onStart={start} />
      ) : (
        <div className="scanbar" data-testid="receiving-values">
          <strong>入荷設定</strong>
          <span>
            {values.model} ／ {values.cust} ／ MDM: {values.mdm} ／ {values.loc || '保管場所なし'} ／ {values.status}
          </span>
          <span className="spacer" style={{ flex: 1 }} />
          <button className="btn small" onClick={openSetup}>
            設定を変更
          </button>
          <button className="btn small" onClick={() => void end()} data-testid="receiving-end">
            セッションを終了
          </button>
        </div>
      )}
      {!setupOpen && values && (
        <div className="scanbar">
          <label htmlFor="scan" style={{ fontWeight: 700 }}>
            スキャン
          </label>
          <ScanField placeholder="IMEIをスキャン（キー入力してEnterでも可）" />
          <button className="btn" onClick={() => void undoLast()} disabled={!entries.some((e) => e.state === 'ok')} data-testid="receiving-undo">
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
