import { useState } from 'react';
import { Chip } from '../components/ui';
import { Backups, SubAdmins, Workspaces } from './people';
import { getSession, setSession } from './session';
import { SignIn } from './sign-in';
import { Tenants } from './tenants';

function Console({ onOut }: { onOut: () => void }) {
  const isAdmin = getSession()?.role === 'admin';
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
            setSession(null);
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

export function AdminApp() {
  const [signedIn, setSignedIn] = useState(getSession() !== null);
  return signedIn ? <Console onOut={() => setSignedIn(false)} /> : <SignIn onIn={() => setSignedIn(true)} />;
}
