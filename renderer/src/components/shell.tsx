import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../../../shared/api/client';
import { api } from '../api';
import { Overlays } from './ui';

export interface NavItem {
  path: string;
  label: string;
}
export interface NavGroup {
  title: string;
  items: NavItem[];
}

interface SyncView {
  state: 'unknown' | 'online' | 'offline' | 'none' | 'central';
  pending?: number;
  last?: string;
  error?: string;
}

function SyncIndicator() {
  const [sync, setSync] = useState<SyncView>({ state: 'unknown' });
  useEffect(() => {
    let live = true;
    const poll = () =>
      api
        .syncStatus()
        .then((s) => {
          if (!live) return;
          if (s.mode === 'central') return setSync({ state: 'central' });
          const pending = typeof s.pending === 'number' ? s.pending : undefined;
          const lastRaw = [s.lastPull, s.lastPush].filter((x): x is string => typeof x === 'string').sort().pop();
          const last = lastRaw ? new Date(lastRaw).toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }) : undefined;
          setSync({ state: s.enrolled !== true ? 'none' : s.lastError ? 'offline' : 'online', pending, last, error: typeof s.lastError === 'string' ? s.lastError : undefined });
        })
        .catch((e: unknown) => live && setSync({ state: e instanceof ApiError && (e.missingRoute || e.status === 404) ? 'none' : 'offline' }));
    void poll();
    const t = setInterval(() => void poll(), 30_000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, []);
  if (sync.state === 'unknown') return null;
  if (sync.state === 'central')
    return (
      <span className="sync">
        <span className="dot on" /> 中央サーバー
      </span>
    );
  if (sync.state === 'none')
    return (
      <span className="sync" title="中央サーバーとの同期は設定されていません">
        <span className="dot" /> 同期: 未設定（ローカルのみ）
      </span>
    );
  return (
    <span className="sync" data-testid="sync" title={sync.error}>
      <span className={`dot ${sync.state === 'online' ? 'on' : 'off'}`} />
      {sync.state === 'online' ? 'オンライン' : 'オフライン'}
      {sync.pending !== undefined && <> ・ 未送信 {sync.pending}件</>}
      {sync.last ? <> ・ 最終同期 {sync.last}</> : <> ・ 未同期</>}
    </span>
  );
}

/** The platform admin console lives on the central server: linked there, explained on a bench. */
function AdminLink() {
  const [mode, setMode] = useState<string | null>(null);
  useEffect(() => {
    api
      .syncStatus()
      .then((s) => setMode(typeof s.mode === 'string' ? s.mode : null))
      .catch(() => undefined);
  }, []);
  if (mode === 'central')
    return (
      <div className="nav-admin">
        <a href="/admin.html" data-testid="admin-link">
          管理コンソール（運営者・サブ管理者）
        </a>
      </div>
    );
  if (mode === 'bench')
    return (
      <div className="nav-admin muted" title="テナント・サブ管理者・バックアップの管理は中央サーバーの /admin.html で行います">
        管理コンソールは中央サーバーにあります
      </div>
    );
  return null;
}

export function Shell({ nav, current, title, children }: { nav: NavGroup[]; current: string; title: string; children: ReactNode }) {
  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main-content"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
      >
        本文へスキップ
      </a>
      <nav className="nav" aria-label="メインメニュー">
        <div className="brand">
          Kitting Station<small>キッティングセンター業務</small>
        </div>
        {nav.map((g) => (
          <div key={g.title}>
            <h6>{g.title}</h6>
            {g.items.map((i) => (
              <a key={i.path} href={`#${i.path}`} className={current === i.path ? 'active' : undefined}>
                {i.label}
              </a>
            ))}
          </div>
        ))}
        <AdminLink />
      </nav>
      <div className="main">
        <div className="topbar">
          <h1>{title}</h1>
          <span className="spacer" />
          <SyncIndicator />
        </div>
        <main className="content" id="main-content" tabIndex={-1}>
          {children}
        </main>
      </div>
      <Overlays />
    </div>
  );
}
