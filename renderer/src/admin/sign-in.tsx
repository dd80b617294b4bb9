import { useEffect, useState } from 'react';
import { describeError } from '../../../shared/api/client';
import { api, setSession, type Role } from './session';

export function SignIn({ onIn }: { onIn: () => void }) {
  const [role, setRole] = useState<Role>('admin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // On a bench (the desktop app's embedded server) there is no platform administration.
  const [bench, setBench] = useState(false);
  useEffect(() => {
    api
      .syncStatus()
      .then((s) => setBench(s.mode === 'bench'))
      .catch(() => undefined);
  }, []);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const token = role === 'admin' ? (await api.adminLogin(password)).token : (await api.subadminLogin(email, password)).token;
      setSession({ role, token });
      onIn();
    } catch (e) {
      setError(bench ? 'この作業台には管理機能はありません。中央サーバーの管理コンソールでサインインしてください。' : describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="center-page" style={{ maxWidth: 400, marginTop: 80 }}>
      <div className="panel">
        <header>Kitting Station 管理コンソール</header>
        {bench && (
          <div className="body" role="alert" data-testid="admin-bench-notice">
            <strong>この作業台には管理機能はありません。</strong>
            <div>テナント・サブ管理者・バックアップなどのプラットフォーム管理は、中央サーバーの管理コンソール（中央サーバーの /admin.html）で行います。作業台の設定は、作業台の画面の「設定」から行えます。</div>
            <a className="btn small" href="/#/settings" style={{ marginTop: 8, display: 'inline-block' }}>
              作業台の画面に戻る
            </a>
          </div>
        )}
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
