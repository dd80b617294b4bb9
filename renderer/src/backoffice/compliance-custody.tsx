import { useState } from 'react';
import { ApiError } from '../../../shared/api/client';
import { CustodyRejection, type CustodyIssue, type CustodyRecord, type CustodyStep } from '../../../shared/api/schemas';
import { api } from '../api';
import { Chip, Panel, fmtTs, toast } from '../components/ui';
import { ErrorBox } from './parts';

/** The server takes at most 50 steps per record. */
const MAX_STEPS = 50;
const CONFIRMED = '完了';
const STATES = ['未着手', '作業中', CONFIRMED];
const FIELD_LABEL: Record<string, string> = { label: '工程名', role: '役割', who: '担当者', dt: '日時', state: '状態', sign: '署名', imei: 'IMEI', steps: '工程' };
const blankStep = (label = '', role = ''): CustodyStep => ({ label, role, who: '', dt: '', state: '未着手', sign: '' });
const TEMPLATE: CustodyStep[] = [blankStep('回収・受領', '受付'), blankStep('データ消去', '消去担当'), blankStep('出荷・引渡し', '出荷担当')];
/** Same reading as the server: blank, — or (未署名) is unsigned. */
const isUnsigned = (sign: string) => ['', '—', '(未署名)', '（未署名）'].includes(sign.trim());
/** datetime-local gives YYYY-MM-DDTHH:mm; the record keeps YYYY-MM-DD HH:mm. */
const toStamp = (v: string) => v.replace('T', ' ');
const toLocal = (v: string) => v.replace(' ', 'T');

function IssueList({ title, items, testId, c }: { title: string; items: CustodyIssue[]; testId: string; c: string }) {
  return (
    <div data-testid={testId}>
      <div className="row">
        <strong>{title}</strong> <Chip c={c}>{`${items.length}件`}</Chip>
      </div>
      {items.length === 0 ? (
        <div className="muted">なし</div>
      ) : (
        <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {items.map((x, i) => (
            <li key={i}>
              {x.message}
              {x.missing && x.missing.length > 0 && <span className="muted">（未入力: {x.missing.map((m) => FIELD_LABEL[m] ?? m).join('・')}）</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Rejection({ r }: { r: CustodyRejection }) {
  return (
    <div className="state error" role="alert" data-testid="custody-rejected" style={{ textAlign: 'left', display: 'grid', gap: 8 }}>
      <strong>記録できませんでした。以下を確認してください。</strong>
      <IssueList title="要修正（入力内容の誤り）" items={r.invalid} testId="custody-invalid" c="c-red" />
      <IssueList title="未完了の工程" items={r.incomplete} testId="custody-incomplete" c="c-orange" />
      <div data-testid="custody-draftable">
        {r.draftable ? (
          <Chip c="c-blue">下書き可: 要修正の項目はありません。未完了の工程を終えてから記録してください。</Chip>
        ) : (
          <Chip c="c-red">下書き不可: 要修正の項目を直してください。</Chip>
        )}
      </div>
    </div>
  );
}

function StoredRecord({ rec }: { rec: CustodyRecord }) {
  return (
    <div data-testid="custody-record" style={{ display: 'grid', gap: 6 }}>
      <div className="row">
        <Chip c="c-green">記録済</Chip>
        <span className="mono">{rec.id}</span>
        <span>
          IMEI <span className="mono">{rec.imei}</span> ・ {rec.model || '機種未入力'} ・ {rec.cust || '顧客未入力'}
        </span>
        <span className="muted">{fmtTs(rec.created)}</span>
      </div>
      <table className="t">
        <thead>
          <tr>
            <th style={{ width: 30 }}>#</th>
            <th>工程</th>
            <th>役割</th>
            <th>担当者</th>
            <th>日時</th>
            <th>状態</th>
            <th>署名</th>
          </tr>
        </thead>
        <tbody>
          {rec.steps.map((st, i) => (
            <tr key={i}>
              <td className="num">{i + 1}</td>
              <td>{st.label}</td>
              <td>{st.role}</td>
              <td>{st.who}</td>
              <td className="mono">{st.dt}</td>
              <td>{st.state}</td>
              <td>{st.sign}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Chain-of-custody record of one device: every step confirmed (完了) and signed, or the server's lists. */
export function CustodyForm() {
  const [imei, setImei] = useState('');
  const [model, setModel] = useState('');
  const [cust, setCust] = useState('');
  const [steps, setSteps] = useState<CustodyStep[]>(TEMPLATE);
  const [busy, setBusy] = useState(false);
  const [rejected, setRejected] = useState<CustodyRejection | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [record, setRecord] = useState<CustodyRecord | null>(null);
  const setStep = (i: number, k: keyof CustodyStep, v: string) => setSteps((l) => l.map((x, j) => (j === i ? { ...x, [k]: v } : x)));
  const flagged = (i: number | null, field: string) => !!rejected?.invalid.some((x) => (x.step ?? null) === i && x.field === field);
  const submit = async () => {
    setBusy(true);
    setRejected(null);
    setError(null);
    setRecord(null);
    try {
      const r = await api.custody({ imei: imei.trim(), model: model.trim(), cust: cust.trim(), steps });
      setRecord(r.record);
      toast(`管理記録 ${r.record.id} を保存しました`);
    } catch (e) {
      const parsed = e instanceof ApiError && e.status === 422 ? CustodyRejection.safeParse(e.body) : null;
      if (parsed?.success) setRejected(parsed.data);
      else setError(e);
    } finally {
      setBusy(false);
    }
  };
  const clear = () => {
    setImei('');
    setModel('');
    setCust('');
    setSteps(TEMPLATE);
    setRejected(null);
    setError(null);
    setRecord(null);
  };
  return (
    <Panel
      title="端末の管理記録（チェーン・オブ・カストディ）"
      actions={
        <>
          <button className="btn" onClick={clear}>
            新しい記録
          </button>
          <button className="btn primary" disabled={busy} onClick={() => void submit()} data-testid="custody-submit">
            {busy ? '確認中…' : '確認して記録'}
          </button>
        </>
      }
    >
      <div className="body" style={{ display: 'grid', gap: 10 }} data-testid="custody">
        <div className="row">
          <label className="row">
            IMEI
            <input className="in mono" style={{ width: 170, ...(flagged(null, 'imei') ? { borderColor: 'var(--danger)' } : {}) }} maxLength={40} value={imei} onChange={(e) => setImei(e.target.value)} aria-label="管理記録のIMEI" aria-invalid={flagged(null, 'imei')} />
          </label>
          <label className="row">
            機種
            <input className="in" style={{ width: 150 }} maxLength={60} value={model} onChange={(e) => setModel(e.target.value)} aria-label="管理記録の機種" />
          </label>
          <label className="row">
            顧客
            <input className="in" style={{ width: 220 }} maxLength={120} value={cust} onChange={(e) => setCust(e.target.value)} aria-label="管理記録の顧客" />
          </label>
        </div>
        <table className="t" data-testid="custody-steps">
          <thead>
            <tr>
              <th style={{ width: 30 }}>#</th>
              <th>工程名</th>
              <th style={{ width: 110 }}>役割</th>
              <th style={{ width: 110 }}>担当者</th>
              <th style={{ width: 190 }}>日時</th>
              <th style={{ width: 90 }}>状態</th>
              <th style={{ width: 140 }}>署名</th>
              <th style={{ width: 50 }} />
            </tr>
          </thead>
          <tbody>
            {steps.map((st, i) => {
              const n = i + 1;
              const cell = (k: 'label' | 'role' | 'who' | 'sign', max: number, label: string, placeholder?: string) => (
                <input
                  className="in"
                  style={{ width: '100%', ...(flagged(i, k) ? { borderColor: 'var(--danger)' } : {}) }}
                  maxLength={max}
                  value={st[k]}
                  placeholder={placeholder}
                  aria-label={`工程${n} ${label}`}
                  aria-invalid={flagged(i, k)}
                  onChange={(e) => setStep(i, k, e.target.value)}
                />
              );
              return (
                <tr key={i}>
                  <td className="num">{n}</td>
                  <td>{cell('label', 120, '工程名')}</td>
                  <td>{cell('role', 60, '役割')}</td>
                  <td>{cell('who', 60, '担当者')}</td>
                  <td>
                    <input
                      className="in"
                      type="datetime-local"
                      style={{ width: '100%', ...(flagged(i, 'dt') ? { borderColor: 'var(--danger)' } : {}) }}
                      value={toLocal(st.dt)}
                      aria-label={`工程${n} 日時`}
                      aria-invalid={flagged(i, 'dt')}
                      onChange={(e) => setStep(i, 'dt', toStamp(e.target.value))}
                    />
                  </td>
                  <td>
                    <select className="in" value={st.state} aria-label={`工程${n} 状態`} onChange={(e) => setStep(i, 'state', e.target.value)}>
                      {[...new Set([st.state, ...STATES])].map((o) => (
                        <option key={o} value={o}>
                          {o || '—'}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {cell('sign', 200, '署名', '(未署名)')}
                    {st.state === CONFIRMED && isUnsigned(st.sign) && <div style={{ color: 'var(--danger)', fontSize: 11 }}>完了には署名が必要です</div>}
                  </td>
                  <td>
                    <button className="btn small danger" aria-label={`工程${n}を削除`} disabled={steps.length <= 1} onClick={() => setSteps((l) => l.filter((_, j) => j !== i))}>
                      削除
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <div className="row">
          <button className="btn small" disabled={steps.length >= MAX_STEPS} onClick={() => setSteps((l) => [...l, blankStep()])}>
            ＋ 工程を追加
          </button>
          <span className="muted" style={{ fontSize: 12 }}>
            {steps.length}/{MAX_STEPS}工程。状態「完了」の工程は担当者と署名が必要です。署名が空欄・「—」・「(未署名)」の工程は未署名として扱います。
          </span>
        </div>
        {rejected && <Rejection r={rejected} />}
        {error !== null && <ErrorBox title="管理記録を保存できませんでした" error={error} testId="custody-error" />}
        {record && <StoredRecord rec={record} />}
      </div>
    </Panel>
  );
}
