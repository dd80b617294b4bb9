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
export function portalKeyOf(c: Customer, portals: PortalMap | null): string | null {
  if (!portals) return null;
  if (c.key && portals[c.key]) return c.key;
  return Object.values(portals).find((p) => p.name === c.name)?.id ?? null;
}

const put = (portals: Portals, p: PortalEntry) => portals.setData((m) => m && { ...m, [p.id]: p });

export function PortalCell({ customer, portals }: { customer: Customer; portals: Portals }) {
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
    <span className="row" style={{ gap: 4, flexWrap: 'nowrap' }} data-testid={`portal-state-${key}`}>
      <Chip c={p.published ? 'c-green' : 'c-gray'}>{p.published ? '公開中' : '非公開'}</Chip>
      <button className="btn small" disabled={busy} onClick={() => void toggle()} aria-label={`${customer.name} のポータルを${p.published ? '非公開にする' : '公開する'}`}>
        {p.published ? '非公開に' : '公開'}
      </button>
    </span>
  );
}

function PortalLinkModal({ name, url, onClose }: { name: string; url: string; onClose: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
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
      title={`${name} のポータルURL`}
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
        <div>ポータルを公開し、閲覧用のリンクを発行しました。このURLを顧客のご担当者様にお送りください。</div>
        <input ref={ref} className="in mono" readOnly value={url} data-testid="portal-url" aria-label="ポータルのURL" style={{ width: '100%' }} onFocus={(e) => e.currentTarget.select()} />
        <div className="muted" style={{ fontSize: 12 }}>リンクには有効期限があります。非公開にすると、リンクを開いても端末一覧は表示されません。</div>
      </div>
    </Modal>
  );
}

export function PortalActions({ customer, portals }: { customer: Customer; portals: Portals }) {
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const key = portalKeyOf(customer, portals.data);
  const issue = async () => {
    if (!key) return;
    setBusy(true);
    try {
      const r = await api.issuePortal(key);
      put(portals, r.portal);
      setUrl(`${location.origin}${r.url}`);
    } catch (e) {
      toastError(e, 'ポータルのリンクを発行できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button className="btn small" disabled={busy || !key} title={key ? undefined : 'この顧客にはポータルが用意されていません'} onClick={() => void issue()} aria-label={`${customer.name} のポータル公開`}>
        ポータル公開
      </button>
      {url && <PortalLinkModal name={customer.name} url={url} onClose={() => setUrl(null)} />}
    </>
  );
}
