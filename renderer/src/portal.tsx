import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, createApiClient, describeError } from '../../shared/api/client';
import { PORTAL_INQUIRY_KINDS, type PortalView } from '../../shared/api/schemas';
import { Async, Chip, Overlays, Panel, fmtTs, toast, useLoad } from './components/ui';
import './styles.css';

const api = createApiClient();
const KINDS = PORTAL_INQUIRY_KINDS;
type Kind = (typeof KINDS)[number];

function Invalid({ title, text }: { title: string; text: string }) {
  return (
    <div className="center-page">
      <div className="panel" style={{ padding: 28, textAlign: 'center' }} data-testid="portal-invalid">
        <h1 style={{ fontSize: 20, margin: '0 0 8px' }}>{title}</h1>
        <p className="muted" style={{ margin: 0 }}>
          {text}
        </p>
        <p className="muted" style={{ marginTop: 16, fontSize: 12 }}>
          お手数ですが、担当のキッティングセンターに新しいリンクの発行をご依頼ください。
        </p>
      </div>
    </div>
  );
}

function InquiryForm({ token }: { token: string }) {
  const [kind, setKind] = useState<Kind>('問合せ');
  const [message, setMessage] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const send = async () => {
    if (!message.trim()) return toast('お問い合わせ内容を入力してください', true);
    setBusy(true);
    try {
      const r = await api.portalInquiry(token, { kind, message, name, email });
      setDone(r.ticket?.id ?? r.ref ?? '');
      setMessage('');
    } catch (e) {
      toast(describeError(e), true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title="お問い合わせ・故障のご連絡">
      <div className="body form">
        {done !== null && (
          <>
            <span />
            <div className="chip c-green" style={{ padding: '4px 10px' }} data-testid="portal-sent">
              受け付けました（受付番号 {done}）。担当より折り返しご連絡します。
            </div>
          </>
        )}
        <label htmlFor="pi-kind">種別</label>
        <select id="pi-kind" className="in" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {KINDS.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
        <label htmlFor="pi-msg">内容</label>
        <textarea id="pi-msg" className="in" rows={4} maxLength={2000} value={message} onChange={(e) => setMessage(e.target.value)} placeholder="端末の状況、管理番号などをご記入ください" />
        <label htmlFor="pi-name">お名前</label>
        <input id="pi-name" className="in" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="pi-email">メール</label>
        <input id="pi-email" className="in" type="email" value={email} maxLength={120} onChange={(e) => setEmail(e.target.value)} />
        <span />
        <div>
          <button className="btn primary" disabled={busy} onClick={() => void send()}>
            {busy ? '送信中…' : '送信する'}
          </button>
        </div>
      </div>
    </Panel>
  );
}

function Portal() {
  const token = new URLSearchParams(window.location.search).get('t') ?? '';
  const state = useLoad(() => (token ? api.portalView(token) : Promise.reject(new ApiError('GET', '/api/portal/view', 401, 'portal_link_invalid'))));
  if (state.error) {
    const e = state.error;
    if (e instanceof ApiError && (e.is('portal_link_invalid') || e.status === 401)) return <Invalid title="このリンクは無効です" text="リンクの有効期限が切れているか、取り消されています。" />;
    if (e instanceof ApiError && (e.is('portal_not_found') || e.status === 404)) return <Invalid title="ポータルが見つかりません" text={describeError(e)} />;
    return <Invalid title="ポータルを表示できません" text={describeError(e)} />;
  }
  return (
    <Async state={state} what="ポータル">
      {(d) => (
        <div className="center-page">
          <header className="row">
            <div>
              <div className="muted" style={{ fontSize: 12 }}>
                Kitting Station お客様ポータル
              </div>
              <h1 style={{ margin: 0, fontSize: 20 }}>{d.client.name} 様</h1>
            </div>
            <span style={{ flex: 1 }} />
            <span className="muted">最終更新 {d.last ?? '—'}</span>
          </header>
          {!d.published ? (
            <div className="panel state">このポータルは現在公開されていません。</div>
          ) : (
            <>
              <div className="kpis">
                <div className="kpi">
                  <div className="label">登録端末</div>
                  <div className="value">
                    {d.devices?.total ?? '—'}
                    <small>台</small>
                  </div>
                </div>
                <div className="kpi">
                  <div className="label">稼働中</div>
                  <div className="value">
                    {d.devices?.active ?? '—'}
                    <small>台</small>
                  </div>
                </div>
                <div className="kpi">
                  <div className="label">対応中のお問い合わせ</div>
                  <div className="value">
                    {(d.tickets ?? []).filter((t) => t.status !== '解決').length}
                    <small>件</small>
                  </div>
                </div>
              </div>
              <Panel title={`端末一覧（${d.devices?.shown ?? d.devices?.list?.length ?? 0}台を表示）`}>
                <div style={{ maxHeight: 420, overflow: 'auto' }}>
                  <table className="t" data-testid="portal-devices">
                    <thead>
                      <tr>
                        <th>IMEI（下6桁）</th>
                        <th>機種</th>
                        <th>状態</th>
                      </tr>
                    </thead>
                    <tbody>
                      {(d.devices?.list ?? []).map((x, i) => (
                        <tr key={`${x.imei}-${i}`}>
                          <td className="mono">{x.imei}</td>
                          <td>{x.model}</td>
                          <td>
                            <Chip c={x.chip}>{x.status}</Chip>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Panel>
              <Documents token={token} docs={d.documents} />
              <Panel title="お問い合わせ履歴（最新20件）">
                {(d.tickets ?? []).length === 0 ? (
                  <div className="state">お問い合わせはありません</div>
                ) : (
                  <table className="t">
                    <tbody>
                      {(d.tickets ?? []).map((t) => (
                        <tr key={t.id}>
                          <td className="mono" style={{ width: 100 }}>
                            {t.id}
                          </td>
                          <td style={{ width: 70 }}>{t.kind}</td>
                          <td>{t.subject}</td>
                          <td style={{ width: 110 }}>{fmtTs(t.created)}</td>
                          <td style={{ width: 70 }}>
                            <Chip c={t.status === '解決' ? 'c-green' : t.status === '対応中' ? 'c-cyan' : 'c-blue'}>{t.status}</Chip>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </Panel>
              <InquiryForm token={token} />
            </>
          )}
        </div>
      )}
    </Async>
  );
}

const yen = (n: number) => `¥${n.toLocaleString('ja-JP')}`;
const docHref = (kind: 'cert' | 'invoice', id: string, token: string) => `/api/portal/${kind}/${encodeURIComponent(id)}/pdf?t=${encodeURIComponent(token)}`;

/** Certificates and invoices of this customer, each a PDF download with this page's own link. */
function Documents({ token, docs }: { token: string; docs: PortalView['documents'] }) {
  const certs = docs?.certs ?? [];
  const invoices = docs?.invoices ?? [];
  return (
    <Panel title="書類のダウンロード">
      <div className="body" style={{ display: 'grid', gap: 12 }} data-testid="portal-documents">
        <div>
          <strong>データ消去証明書</strong>
          {certs.length === 0 ? (
            <div className="muted">発行済みの証明書はありません</div>
          ) : (
            <table className="t">
              <tbody>
                {certs.map((c) => (
                  <tr key={c.no}>
                    <td className="mono">{c.no}</td>
                    <td>{c.date}</td>
                    <td className="num">{c.count}台</td>
                    <td>{c.method}</td>
                    <td style={{ textAlign: 'right' }}>
                      <a className="btn small" href={docHref('cert', c.no, token)} download>
                        PDF
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div>
          <strong>請求書</strong>
          {invoices.length === 0 ? (
            <div className="muted">発行済みの請求書はありません</div>
          ) : (
            <table className="t">
              <tbody>
                {invoices.map((i) => (
                  <tr key={i.id}>
                    <td className="mono">{i.id}</td>
                    <td>{i.due ? `お支払期限 ${i.due}` : ''}</td>
                    <td className="num">{yen(i.amount)}</td>
                    <td>{i.paid ? '入金済' : ''}</td>
                    <td style={{ textAlign: 'right' }}>
                      <a className="btn small" href={docHref('invoice', i.id, token)} download>
                        PDF
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </Panel>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Portal />
    <Overlays />
  </StrictMode>,
);
