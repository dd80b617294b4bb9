import { useEffect, useState } from 'react';
import { api } from '../api';
import { Async, ErrorState, Loading, Panel, toast, toastError, useLoad } from '../components/ui';

const COMPANY: [string, string][] = [
  ['name', '会社名'],
  ['brand', 'ブランド名'],
  ['addr', '住所'],
  ['tel', '電話番号'],
  ['email', 'メール'],
  ['regno', '登録番号（インボイス）'],
  ['rep', '代表者'],
  ['web', 'Webサイト'],
  ['bank', '振込先'],
];
const ROLE: Record<string, string> = { owner: 'オーナー', admin: '管理者', exec: '経営', member: 'メンバー', viewer: '閲覧のみ' };

function Company() {
  const state = useLoad(() => api.raw.get('/api/settings/company'));
  const [f, setF] = useState<Record<string, string>>({});
  const [taxBasis, setTaxBasis] = useState('税抜');
  const [validDays, setValidDays] = useState('30');
  useEffect(() => {
    const c = (state.data?.company ?? {}) as Record<string, unknown>;
    setF(Object.fromEntries(COMPANY.map(([k]) => [k, typeof c[k] === 'string' ? (c[k] as string) : ''])));
    setTaxBasis(c.taxBasis === '税込' ? '税込' : '税抜');
    setValidDays(typeof c.quoteValidDays === 'number' ? String(c.quoteValidDays) : '30');
  }, [state.data]);
  if (state.error && !state.data) return <ErrorState error={state.error} what="会社情報" onRetry={state.reload} />;
  if (!state.data) return <Loading what="会社情報" />;
  const save = async () => {
    const days = Number(validDays);
    if (!Number.isInteger(days) || days < 1 || days > 365) return toast('見積の有効期限は1〜365日で入力してください', true);
    try {
      await api.raw.put('/api/settings/company', { ...f, taxBasis, quoteValidDays: days });
      toast('会社情報を保存しました');
    } catch (e) {
      toastError(e, '保存できませんでした');
    }
  };
  return (
    <Panel title="会社情報（証明書・見積書・請求書に印字）" actions={<button className="btn primary" onClick={() => void save()}>保存</button>}>
      <div className="body form">
        {COMPANY.map(([k, l]) => (
          <FieldLine key={k} id={`co-${k}`} label={l} value={f[k] ?? ''} onChange={(v) => setF((p) => ({ ...p, [k]: v }))} />
        ))}
        <label htmlFor="co-taxBasis">請求書の金額表示</label>
        <select id="co-taxBasis" className="in" value={taxBasis} onChange={(e) => setTaxBasis(e.target.value)}>
          <option value="税抜">税抜（消費税を別に加算）</option>
          <option value="税込">税込（消費税を含む）</option>
        </select>
        <label htmlFor="co-validDays">見積の有効期限（発行日から・日）</label>
        <input id="co-validDays" className="in num" type="number" min={1} max={365} value={validDays} onChange={(e) => setValidDays(e.target.value)} />
      </div>
    </Panel>
  );
}

function FieldLine({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} className="in" value={value} maxLength={300} onChange={(e) => onChange(e.target.value)} />
    </>
  );
}

function Prefs() {
  const state = useLoad(() => api.raw.get('/api/settings/prefs'));
  const set = async (k: string, v: boolean) => {
    try {
      const r = await api.raw.put('/api/settings/prefs', { [k]: v });
      state.setData((d) => d && { ...d, prefs: r.prefs });
    } catch (e) {
      toastError(e, '保存できませんでした');
    }
  };
  return (
    <Panel title="通知設定">
      <Async state={state} what="通知設定">
        {(d) => {
          const p = (d.prefs ?? {}) as Record<string, boolean>;
          return (
            <div className="body" style={{ display: 'grid', gap: 6 }}>
              <label className="row">
                <input type="checkbox" checked={p.emailNotify === true} onChange={(e) => void set('emailNotify', e.target.checked)} /> メール通知
              </label>
              <label className="row">
                <input type="checkbox" checked={p.slaAlert !== false} onChange={(e) => void set('slaAlert', e.target.checked)} /> SLA超過アラート
              </label>
            </div>
          );
        }}
      </Async>
    </Panel>
  );
}

function Team() {
  const state = useLoad(() => api.raw.get('/api/team/members'));
  return (
    <Panel title="チームメンバー">
      <Async state={state} what="チームメンバー">
        {(d) =>
          ((d.members ?? []) as unknown[]).length === 0 ? (
            <div className="state" data-testid="team-empty">
              チームメンバーはまだ登録されていません。
              <br />
              メンバーはアカウントの管理者が中央サーバーで招待します（招待メール → 承認でこの一覧に表示されます）。作業台だけで使う場合は、証明書発行時の「作業者」欄に氏名を入力すれば、この作業台の作業者として記憶されます。
            </div>
          ) : (
          <table className="t" data-testid="team">
            <thead>
              <tr>
                <th>名前</th>
                <th>役割</th>
                <th>部署</th>
                <th>メール</th>
                <th>状態</th>
              </tr>
            </thead>
            <tbody>
              {((d.members ?? []) as Record<string, string>[]).map((m) => (
                <tr key={m.id}>
                  <td>{m.name}</td>
                  <td>{ROLE[m.role ?? ''] ?? m.role}</td>
                  <td>{m.dept}</td>
                  <td>{m.email}</td>
                  <td>{m.status === 'invited' ? '招待中' : '有効'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          )
        }
      </Async>
    </Panel>
  );
}

export function SettingsScreen() {
  return (
    <div className="grid2" style={{ alignItems: 'start' }}>
      <Company />
      <div style={{ display: 'grid', gap: 12 }}>
        <Prefs />
        <Team />
      </div>
    </div>
  );
}
