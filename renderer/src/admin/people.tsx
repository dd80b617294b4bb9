import { useState } from 'react';
import { Async, Panel, confirmAction, fmtTs, toast, toastError, useLoad } from '../components/ui';
import { api, getSession } from './session';

export function SubAdmins() {
  const state = useLoad(() => api.adminSubadmins());
  const [f, setF] = useState({ name: '', email: '' });
  const [pw, setPw] = useState<string | null>(null);
  const create = async () => {
    if (!f.email.trim()) return toast('メールアドレスを入力してください', true);
    try {
      const r = await api.adminCreateSubadmin({ name: f.name, email: f.email, tenants: [], canDelete: false });
      state.setData((d) => d && { ...d, subadmins: [...d.subadmins, r.subadmin] });
      setPw(r.password ?? null);
      setF({ name: '', email: '' });
    } catch (e) {
      toastError(e, '作成できませんでした');
    }
  };
  const remove = async (id: string, name?: string) => {
    if (!(await confirmAction(`サブ管理者「${name ?? id}」を削除します。よろしいですか？`))) return;
    try {
      await api.adminDeleteSubadmin(id);
      state.setData((d) => d && { ...d, subadmins: d.subadmins.filter((s) => s.id !== id) });
    } catch (e) {
      toastError(e, '削除できませんでした');
    }
  };
  return (
    <Panel
      title="サブ管理者"
      actions={
        <>
          <input className="in" placeholder="名前" value={f.name} onChange={(e) => setF((p) => ({ ...p, name: e.target.value }))} aria-label="名前" />
          <input className="in" placeholder="メール" value={f.email} onChange={(e) => setF((p) => ({ ...p, email: e.target.value }))} aria-label="メール" />
          <button className="btn primary" onClick={() => void create()}>
            追加
          </button>
        </>
      }
    >
      {pw && <div className="body">初期パスワード: <span className="mono">{pw}</span>（この画面を閉じると再表示できません）</div>}
      <Async state={state} what="サブ管理者">
        {(d) => (
          <table className="t">
            <thead>
              <tr>
                <th>名前</th>
                <th>メール</th>
                <th>担当テナント</th>
                <th>削除権限</th>
                <th>状態</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {d.subadmins.map((s) => (
                <tr key={s.id}>
                  <td>{s.name}</td>
                  <td>{s.email}</td>
                  <td>{(s.tenants ?? []).length}件</td>
                  <td>{s.perms?.canDelete ? 'あり' : 'なし'}</td>
                  <td>{s.active === false ? '無効' : '有効'}</td>
                  <td style={{ textAlign: 'right' }}>
                    <button className="btn small danger" onClick={() => void remove(s.id, s.name)}>
                      削除
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
    </Panel>
  );
}

export function Workspaces() {
  const state = useLoad(() => api.adminWorkspaces());
  return (
    <Panel title="ワークスペースとプラン">
      <Async state={state} what="ワークスペース">
        {(d) => (
          <table className="t">
            <thead>
              <tr>
                <th>ワークスペース</th>
                <th>プラン</th>
                <th>状態</th>
                <th>設定元</th>
              </tr>
            </thead>
            <tbody>
              {d.workspaces.map((w, i) => (
                <tr key={String(w.id ?? w.tenantId ?? i)}>
                  <td className="mono">{String(w.id ?? w.tenantId ?? '')}</td>
                  <td>{String(w.planKey ?? '')}</td>
                  <td>{String(w.planStatus ?? '')}</td>
                  <td>{String(w.planSource ?? '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
    </Panel>
  );
}

export function Backups() {
  const state = useLoad(() => (getSession()?.role === 'sub' ? api.raw.get('/api/subadmin/backups-all').then((r) => ({ log: (r.log ?? []) as { id: string; ts?: number; by?: string; reason?: string; tenantId?: string }[] })) : api.adminBackups()));
  return (
    <Panel title="バックアップ履歴">
      <Async state={state} what="バックアップ">
        {(d) =>
          d.log.length === 0 ? (
            <div className="state">バックアップはまだありません</div>
          ) : (
            <table className="t">
              <tbody>
                {d.log.map((b) => (
                  <tr key={b.id}>
                    <td>{fmtTs(b.ts)}</td>
                    <td className="mono">{b.tenantId}</td>
                    <td>{b.reason}</td>
                    <td>{b.by}</td>
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
