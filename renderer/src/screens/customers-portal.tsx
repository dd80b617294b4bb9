import { useRef, useState } from 'react';
import { PortalEntry, type Customer } from '../../../shared/api/schemas';
import { api } from '../api';
import { Chip, Modal, toast, toastError, useLoad, type Loaded } from '../components/ui';

type PortalMap = Record<string, PortalEntry>;
export type Portals = Loaded<PortalMap>;

/** Portal entries by portal key (GET /api/portals; the `_tickets` / `_dls` counters are left out). */
export function usePortals(): Portals {
  return useLoad(async () => {
    const { state } = await api.portals();
    const out: PortalMap = {};
    for (const [k, v] of Object.entries(state)) {
      if (k.startsWith('_')) continue;
      const p = PortalEntry.safeParse(v);
      if (p.success) out[k] = p.data;
    }
    return out;
  });
}

/**
 * The portal routes take the portal key (e.g. `abc`), not the customer id (`cust-abc`):
 * the customer's own `key` when a portal has it, else the portal carrying the customer's name.
 */
function portalKeyOf(c: Customer, portals: PortalMap | null): string | null {
  if (!portals) return null;
  if (c.key && portals[c.key]) return c.key;
  return Object.values(portals).find((p) => p.name === c.name)?.id ?? null;
}

const put = (portals: Portals, p: PortalEntry) => portals.setData((m) => m && { ...m, [p.id]: p });

export function PortalCell({ customer, portals, testId }: { customer: Customer; portals: Portals; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const key = portalKeyOf(customer, portals.data);
  if (!portals.data) return <span className="muted">{portals.error ? '取得できません' : '…'}</span>;
  if (!key) return <span className="muted" title="この顧客にはポータルが用意されていません">未設定</span>;
  const p = portals.data[key]!;
  const toggle = async () => {
    setBusy(true);
    try {
      const r = await api.togglePortal(key);
      put(portals, r.portal);
      toast(r.portal.published ? `${customer.name} のポータルを公開しました` : `${customer.name} のポータルを非公開にしました`);
    } catch (e) {
      toastError(e, 'ポータルの公開設定を変更できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="row" style={{ gap: 4, flexWrap: 'nowrap' }} data-testid={testId ?? `portal-state-${key}`}>
      <Chip c={p.published ? 'c-green' : 'c-gray'}>{p.published ? '公開中' : '非公開'}</Chip>
      <button className="btn small" disabled={busy} onClick={() => void toggle()} aria-label={`${customer.name} のポータルを${p.published ? '非公開にする' : '公開する'}`}>
        {p.published ? '非公開に' : '公開'}
      </button>
    </span>
  );
}

interface IssuedLink {
  link: string;
  expires: string;
  via: 'public-url' | 'central' | 'request';
}

const fmtDay = (iso: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[1]}年${Number(m[2])}月${Number(m[3])}日` : iso;
};

/** The issued link, the day it stops opening, and the portal's one publish control. */
function PortalLinkModal({ customer, issued, portalKey, portals, onClose }: { customer: Customer; issued: IssuedLink; portalKey: string; portals: Portals; onClose: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const p = portals.data?.[portalKey];
  const url = issued.link;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast('ポータルのURLをコピーしました');
    } catch {
      ref.current?.select();
      const ok = document.execCommand('copy');
      toast(ok ? 'ポータルのURLをコピーしました' : 'コピーできませんでした。URLを選択してコピーしてください', !ok);
    }
  };
  return (
    <Modal
      title={`${customer.name} のポータルURL`}
      onClose={onClose}
      footer={
        <>
          <a className="btn" href={url} target="_blank" rel="noreferrer">
            開く
          </a>
          <button className="btn primary" onClick={() => void copy()}>
            URLをコピー
          </button>
          <button className="btn" onClick={onClose}>
            閉じる
          </button>
        </>
      }
    >
      <div style={{ display: 'grid', gap: 8 }}>
        <div>閲覧用のリンクを発行しました。このURLを顧客のご担当者様にお送りください。</div>
        <input ref={ref} className="in mono" readOnly value={url} data-testid="portal-url" aria-label="ポータルのURL" style={{ width: '100%' }} onFocus={(e) => e.currentTarget.select()} />
        <div data-testid="portal-expires">
          有効期限: <strong>{fmtDay(issued.expires)}</strong> まで（発行から180日）
        </div>
        {issued.via === 'request' && (
          <div role="alert" style={{ color: 'var(--danger)' }} data-testid="portal-local-warning">
            公開アドレスが設定されていないため、このURLは社内のこの環境からしか開けない場合があります。社外へ送るリンクには、センターの公開アドレス（KITTING_PUBLIC_URL）の設定か、センターへの登録が必要です。
          </div>
        )}
        <div className="row" style={{ gap: 8 }}>
          <span>公開状態:</span>
          {p ? <PortalCell customer={customer} portals={portals} testId="portal-dialog-state" /> : <span className="muted">…</span>}
        </div>
        <div className="muted" style={{ fontSize: 12 }}>
          非公開の間は、リンクを開いても会社名だけが表示され、端末一覧や書類は表示されません。リンクの発行で公開状態は変わりません。
        </div>
      </div>
    </Modal>
  );
}

export function PortalActions({ customer, portals }: { customer: Customer; portals: Portals }) {
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<(IssuedLink & { key: string }) | null>(null);
  const key = portalKeyOf(customer, portals.data);
  const issue = async () => {
    setBusy(true);
    try {
      // A customer without a portal gets one (created unpublished) with its first link.
      const r = await api.issuePortal(key ?? customer.id);
      put(portals, r.portal);
      setIssued({ link: r.link, expires: r.expires, via: r.via, key: r.portal.id });
    } catch (e) {
      toastError(e, 'ポータルのリンクを発行できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button className="btn small" disabled={busy || !portals.data} onClick={() => void issue()} aria-label={`${customer.name} のポータルリンク発行`}>
        {key ? 'リンク発行' : 'ポータル作成'}
      </button>
      {issued && <PortalLinkModal customer={customer} issued={issued} portalKey={issued.key} portals={portals} onClose={() => setIssued(null)} />}
    </>
  );
}
