import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient, describeError } from '../../shared/api/client';
import type { Tenant } from '../../shared/api/schemas';
import { Async, Chip, Modal, Overlays, Panel, confirmAction, fmtTs, toast, toastError, useLoad, yen } from './components/ui';
import './styles.css';

type Role = 'admin' | 'sub';
const KEY = 'ks-admin-session';
function readSession(): { role: Role; token: string } | null {
  try {
    const s = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { role: Role; token: string } | null;
    return s && typeof s.token === 'string' ? s : null;
  } catch {
    return null;
  }
}
let session = readSession();
const api = createApiClient({ token: () => session?.token ?? null });
const STATUS: Record<string, [string, string]> = { active: ['稼働中', 'c-green'], trial: ['トライアル', 'c-blue'], suspended: ['停止中', 'c-red'] };

function SignIn({ onIn }: { onIn: () => void }) {
  const [role, setRole] = useState<Role>('admin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const token = role === 'admin' ? (await api.adminLogin(password)).token : (await api.subadminLogin(email, password)).token;
      session = { role, token };
      sessionStorage.setItem(KEY, JSON.stringify(session));
      onIn();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="center-page" style={{ maxWidth: 400, marginTop: 80 }}>
      <div className="panel">
        <header>Kitting Station 管理コンソール</header>
        <form
          className="body"
          style={{ display: 'grid', gap: 10 }}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className="tabs">
            <button type="button" className={role === 'admin' ? 'on' : ''} onClick={() => setRole('admin')}>
              管理者
            </button>
            <button type="button" className={role === 'sub' ? 'on' : ''} onClick={() => setRole('sub')}>
              サブ管理者
            </button>
          </div>
          {role === 'sub' && <input className="in" type="email" placeholder="メールアドレス" value={email} onChange={(e) => setEmail(e.target.value)} aria-label="メールアドレス" />}
          <input className="in" type="password" placeholder="パスワード" value={password} onChange={(e) => setPassword(e.target.value)} aria-label="パスワード" autoFocus />
          {error && (
            <div className="state error" role="alert">
              {error}
            </div>
          )}
          <button className="btn primary" type="submit" disabled={busy}>
            {busy ? 'サインイン中…' : 'サインイン'}
          </button>
        </form>
      </div>
    </div>
  );
}

function TenantDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const state = useLoad(() => (session?.role === 'sub' ? api.subadminTenant(id) : api.adminTenant(id)), [id]);
  const [client, setClient] = useState('');
  const [url, setUrl] = useState<string | null>(null);
  const issue = async () => {
    if (!client.trim()) return toast('顧客名を入力してください', true);
    try {
      const r = session?.role === 'sub' ? await api.raw.post(`/api/subadmin/tenant/${encodeURIComponent(id)}/client`, { client }) : await api.adminIssuePortal(id, client);
      setUrl(String(r.url));
    } catch (e) {
      toastError(e, '発行できませんでした');
    }
  };
  const backup = async () => {
    try {
      await api.backup(id, '手動バックアップ');
      toast('バックアップを作成しました');
    } catch (e) {
      toastError(e, 'バックアップできませんでした');
    }
  };
  return (
    <Modal title={`テナント詳細 ${id}`} onClose={onClose} footer={<button className="btn" onClick={onClose}>閉じる</button>}>
      <Async state={state} what="テナント">
        {(d) => (
          <div style={{ display: 'grid', gap: 10 }}>
            <div className="form">
              <label>名前</label>
              <div>{d.tenant.name}</div>
              <label>プラン</label>
              <div>{d.tenant.plan}</div>
              <label>状態</label>
              <div>
                <Chip c={STATUS[d.tenant.status ?? '']?.[1]}>{STATUS[d.tenant.status ?? '']?.[0] ?? d.tenant.status}</Chip>
              </div>
              <label>席数</label>
              <div>
                {d.tenant.used ?? 0} / {d.tenant.seats ?? '—'}
              </div>
              <label>メール</label>
              <div>{d.tenant.email || '—'}</div>
              <label>顧客</label>
              <div>{(d.tenant.clients ?? []).join('、') || '—'}</div>
            </div>
            <div className="row">
              <input className="in" placeholder="顧客名" value={client} maxLength={80} onChange={(e) => setClient(e.target.value)} aria-label="ポータルを発行する顧客名" />
              <button className="btn" onClick={() => void issue()}>
                ポータルリンク発行
              </button>
              <button className="btn" onClick={() => void backup()}>
                バックアップ
              </button>
            </div>
            {url && (
              <div className="mono" style={{ wordBreak: 'break-all' }} data-testid="portal-url">
                {url}
              </div>
            )}
          </div>
        )}
      </Async>
    </Modal>
  );
}

function Tenants() {
  const state = useLoad(() => (session?.role === 'sub' ? api.subadminMe() : api.adminTenants()));
  const [open, setOpen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const create = async () => {
    if (!name.trim()) return toast('テナント名を入力してください', true);
    try {
      const { tenant } = await api.adminCreateTenant({ name });
      state.setData((d) => d && { ...d, tenants: [...d.tenants, tenant] });
      setName('');
      toast(`${tenant.name} を作成しました`);
    } catch (e) {
      toastError(e, '作成できませんでした');
    }
  };
  const remove = async (t: Tenant) => {
    if (!(await confirmAction(`テナント「${t.name}」を削除します。この操作は取り消せません。`))) return;
    try {
      await api.adminDeleteTenant(t.id);
      state.setData((d) => d && { ...d, tenants: d.tenants.filter((x) => x.id !== t.id) });
    } catch (e) {
      toastError(e, '削除できませんでした');
    }
  };
  return (
    <Async state={state} what="テナント一覧">
      {(d) => {
        const stats = (d.stats ?? {}) as Record<string, number | undefined>;
        return (
          <>
            <div className="kpis">
              {(
                [
                  ['テナント', stats.total ?? stats.tenants ?? d.tenants.length],
                  ['稼働中', stats.active],
                  ['トライアル', stats.trial],
                  ['端末', stats.devices],
                  ['MRR', stats.mrr !== undefined ? yen(stats.mrr) : undefined],
                ] as [string, string | number | undefined][]
              )
                .filter(([, v]) => v !== undefined)
                .map(([l, v]) => (
                  <div className="kpi" key={l}>
                    <div className="label">{l}</div>
                    <div className="value">{v}</div>
                  </div>
                ))}
            </div>
            <Panel
              title="テナント"
              actions={
                session?.role === 'admin' && (
                  <>
                    <input className="in" placeholder="新しいテナント名" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} aria-label="新しいテナント名" />
                    <button className="btn primary" onClick={() => void create()}>
                      作成
                    </button>
                  </>
                )
              }
            >
              {d.tenants.length === 0 ? (
                <div className="state">テナントはありません</div>
              ) : (
                <table className="t" data-testid="tenants">
                  <thead>
                    <tr>
                      <th>ID</th>
                      <th>名前</th>
                      <th>プラン</th>
                      <th>状態</th>
                      <th className="num">席</th>
                      <th className="num">端末</th>
                      <th className="num">MRR</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {d.tenants.map((t) => (
                      <tr key={t.id} className="clickable" onClick={() => setOpen(t.id)}>
                        <td className="mono">{t.id}</td>
                        <td>{t.name}</td>
                        <td>{t.plan}</td>
                        <td>
                          <Chip c={STATUS[t.status ?? '']?.[1]}>{STATUS[t.status ?? '']?.[0] ?? t.status}</Chip>
                        </td>
                        <td className="num">
                          {t.used ?? 0}/{t.seats ?? '—'}
                        </td>
                        <td className="num">{t.devices ?? '—'}</td>
                        <td className="num">{yen(t.mrr)}</td>
                        <td style={{ textAlign: 'right' }} onClick={(e) => e.stopPropagation()}>
                          {session?.role === 'admin' && (
                            <button className="btn small danger" onClick={() => void remove(t)}>
                              削除
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </Panel>
            {open && <TenantDetail id={open} onClose={() => setOpen(null)} />}
          </>
        );
      }}
    </Async>
  );
}

function SubAdmins() {
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

function Workspaces() {
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

function Backups() {
  const state = useLoad(() => (session?.role === 'sub' ? api.raw.get('/api/subadmin/backups-all').then((r) => ({ log: (r.log ?? []) as { id: string; ts?: number; by?: string; reason?: string; tenantId?: string }[] })) : api.adminBackups()));
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

function Console({ onOut }: { onOut: () => void }) {
  const isAdmin = session?.role === 'admin';
  const tabs: [string, string][] = isAdmin
    ? [
        ['tenants', 'テナント'],
        ['subs', 'サブ管理者'],
        ['ws', 'ワークスペース・プラン'],
        ['backups', 'バックアップ'],
      ]
    : [
        ['tenants', '担当テナント'],
        ['backups', 'バックアップ'],
      ];
  const [tab, setTab] = useState('tenants');
  return (
    <div className="center-page" style={{ maxWidth: 1200 }}>
      <header className="row">
        <h1 style={{ margin: 0, fontSize: 18 }}>管理コンソール</h1>
        <Chip c={isAdmin ? 'c-purple' : 'c-cyan'}>{isAdmin ? '管理者' : 'サブ管理者'}</Chip>
        <span style={{ flex: 1 }} />
        <button
          className="btn"
          onClick={() => {
            session = null;
            sessionStorage.removeItem(KEY);
            onOut();
          }}
        >
          サインアウト
        </button>
      </header>
      <div className="tabs">
        {tabs.map(([k, l]) => (
          <button key={k} className={tab === k ? 'on' : ''} onClick={() => setTab(k)}>
            {l}
          </button>
        ))}
      </div>
      {tab === 'tenants' && <Tenants />}
      {tab === 'subs' && <SubAdmins />}
      {tab === 'ws' && <Workspaces />}
      {tab === 'backups' && <Backups />}
    </div>
  );
}

function AdminApp() {
  const [signedIn, setSignedIn] = useState(session !== null);
  return signedIn ? <Console onOut={() => setSignedIn(false)} /> : <SignIn onIn={() => setSignedIn(true)} />;
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AdminApp />
    <Overlays />
  </StrictMode>,
);
