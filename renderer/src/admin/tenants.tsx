import { useState } from 'react';
import type { Tenant } from '../../../shared/api/schemas';
import { Async, activateOnKey, Chip, Modal, Panel, confirmAction, toast, toastError, useLoad, yen } from '../components/ui';
import { STATUS, api, getSession } from './session';

function TenantDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const state = useLoad(() => (getSession()?.role === 'sub' ? api.subadminTenant(id) : api.adminTenant(id)), [id]);
  const [client, setClient] = useState('');
  const [url, setUrl] = useState<string | null>(null);
  const issue = async () => {
    if (!client.trim()) return toast('顧客名を入力してください', true);
    try {
      const r = getSession()?.role === 'sub' ? await api.raw.post(`/api/subadmin/tenant/${encodeURIComponent(id)}/client`, { client }) : await api.adminIssuePortal(id, client);
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

export function Tenants() {
  const state = useLoad(() => (getSession()?.role === 'sub' ? api.subadminMe() : api.adminTenants()));
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
                getSession()?.role === 'admin' && (
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
                      <tr key={t.id} className="clickable" {...activateOnKey(() => setOpen(t.id))}>
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
                          {getSession()?.role === 'admin' && (
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
