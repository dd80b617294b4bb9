import { useEffect, useMemo, useState } from 'react';
import type { ErasureCert, ErasureMethod } from '../../../shared/api/schemas';
import { api } from '../api';
import { Async, Chip, Modal, Panel, confirmAction, toast, toastError, todayJst, useLoad } from '../components/ui';
import { stationBridge } from '../lib/station';
import { useScanHandler } from '../lib/scan-service';
import { playScanSound } from '../lib/sound';
import { RegisterModal } from './ledger-register';
import { ScanBar, scanMsg, type ScanMsg } from './ledger-scan';

const OPERATOR_KEY = 'kitting.benchOperator';
/** The bench's configured operator (kept on this PC), used when nobody is signed in. */
export function benchOperator(): string {
  try {
    return localStorage.getItem(OPERATOR_KEY) ?? '';
  } catch {
    return '';
  }
}
function saveBenchOperator(name: string): void {
  try {
    localStorage.setItem(OPERATOR_KEY, name);
  } catch {
    /* storage unavailable: the name still applies to this certificate */
  }
}

const METHODS: { key: ErasureMethod; label: string }[] = [
  { key: 'purge', label: '暗号化消去 / Purge（NIST SP 800-88）' },
  { key: 'clear', label: '論理消去 / Clear（NIST SP 800-88）' },
  { key: 'destroy', label: '物理破壊 / Destroy（NIST SP 800-88）' },
];
interface Line {
  id: string;
  model: string;
  storage: string;
  cust: string;
}

export function CertsScreen() {
  const devices = useLoad(() => api.devices());
  const certs = useLoad(() => api.certs());
  const [lines, setLines] = useState<Line[]>([]);
  const [method, setMethod] = useState<ErasureMethod>('purge');
  const [cust, setCust] = useState('');
  const [date, setDate] = useState(todayJst());
  const [msg, setMsg] = useState<ScanMsg>(null);
  const [registering, setRegistering] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<(ErasureCert & { erased?: number }) | null>(null);
  const [operator, setOperator] = useState(benchOperator);
  const [signedIn, setSignedIn] = useState<string | null>(null);
  const [unknown, setUnknown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ErasureCert | null>(null);
  useEffect(() => {
    api.raw
      .get('/api/account/me')
      .then((r) => {
        const acct = r.account as { name?: unknown; email?: unknown } | undefined;
        const name = r.signedIn === true && acct ? String(acct.name || acct.email || '') : '';
        if (name) {
          setSignedIn(name);
          setOperator(name);
        }
      })
      .catch(() => undefined);
  }, []);
  const byImei = useMemo(() => new Map((devices.data?.devices ?? []).map((d) => [d.imei, d])), [devices.data]);

  // Scans made before the ledger has loaded wait for it (none is refused as unknown by mistake).
  const [early, setEarly] = useState<string[]>([]);
  useEffect(() => {
    if (!devices.data || early.length === 0) return;
    const list = early;
    setEarly([]);
    for (const imei of list) onImei(imei);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [devices.data, early]);
  const onImei = (imei: string) => {
    if (!devices.data && !devices.error) {
      setEarly((l) => [...l, imei]);
      return setMsg(scanMsg('info', `${imei} を受け付けました（台帳を読み込み中）`));
    }
    if (lines.some((l) => l.id === imei)) {
      playScanSound('duplicate');
      return setMsg(scanMsg('bad', `${imei} はすでに追加されています`));
    }
    const d = byImei.get(imei);
    if (!d) {
      // A certificate lists ledger devices only: an unknown IMEI is refused unless registered explicitly.
      playScanSound('error');
      setUnknown(imei);
      return setMsg(scanMsg('bad', `${imei} は台帳に未登録のため追加できません。登録する場合は「台帳に登録して追加」を押してください`));
    }
    playScanSound('ok');
    setLines((l) => [...l, { id: imei, model: d.model ?? '', storage: '', cust: d.cust ?? '' }]);
    if (!cust && d.cust) setCust(d.cust);
    setMsg(scanMsg('good', `${imei}（${d.model}）を追加しました`));
    setIssued(null);
  };
  useScanHandler((scan) => (scan.kind === 'imei' ? onImei(scan.value) : setMsg({ tone: 'bad', text: `読み取り値「${scan.value}」: ${scan.message}` })));
  const issue = async () => {
    if (!cust.trim()) return toast('顧客名を入力してください', true);
    if (!operator.trim()) return toast('作業者を入力してください', true);
    if (lines.some((l) => !l.model.trim())) return toast('機種が空欄の端末があります', true);
    if (lines.length === 0) return toast('消去した端末をスキャンしてください', true);
    if (!(await confirmAction(`${cust} 向けに ${lines.length}台分のデータ消去証明書を発行します。発行後は番号が確定します。`, '発行する'))) return;
    setBusy(true);
    try {
      if (!signedIn) saveBenchOperator(operator.trim());
      const r = await api.raw.post('/api/cert', { cust, methodKey: method, date, count: lines.length, operator: operator.trim(), devices: lines.map(({ id, model, storage }) => ({ id, model, storage })) });
      const cert = r.cert as ErasureCert;
      const erased = Array.isArray(r.erased) ? r.erased.length : 0;
      setIssued({ ...cert, erased });
      devices.reload();
      setLines([]);
      certs.setData((d) => d && { ...d, certs: [cert, ...d.certs] });
      // The list names each certificate's verification page: read it again.
      certs.reload();
      toast(`証明書 ${cert.no} を発行しました`);
    } catch (e) {
      toastError(e, '発行できませんでした');
    } finally {
      setBusy(false);
    }
  };
  const openPdf = async (no: string) => {
    const url = api.certPdfUrl(no);
    window.open(url, '_blank', 'noopener');
  };
  const printPdf = async (no: string) => {
    const bridge = stationBridge();
    if (!bridge) return;
    try {
      const r = await bridge.printCertificate({ path: `/api/cert/${encodeURIComponent(no)}/pdf` });
      if (r.ok) toast('証明書を印刷しました');
      else toast(`印刷できませんでした: ${r.reason ?? '不明なエラー'}`, true);
    } catch (e) {
      toastError(e, '印刷できませんでした');
    }
  };
  return (
    <>
      <ScanBar message={msg} setMessage={setMsg} hint="消去が完了した端末のIMEIをスキャンしてください（どの欄にフォーカスがあってもスキャンできます）" />
      {unknown && (
        <div className="row" style={{ margin: '6px 0' }}>
          <button className="btn" onClick={() => setRegistering(unknown)} data-testid="cert-register-unknown">
            {unknown} を台帳に登録して追加
          </button>
          <button className="btn" onClick={() => setUnknown(null)}>
            追加しない
          </button>
        </div>
      )}
      {registering && (
        <RegisterModal
          queue={[registering]}
          bulk={false}
          customers={[...new Set((devices.data?.devices ?? []).map((d) => d.cust ?? '').filter(Boolean))]}
          models={[...new Set((devices.data?.devices ?? []).map((d) => d.model ?? '').filter(Boolean))]}
          onClose={() => setRegistering(null)}
          onSkip={() => setRegistering(null)}
          onCreated={(list) => {
            const d = list[0];
            setRegistering(null);
            setUnknown(null);
            if (!d) return;
            devices.setData((x) => x && { ...x, devices: [...x.devices, d] });
            setLines((l) => [...l, { id: d.imei, model: d.model ?? '', storage: '', cust: d.cust ?? '' }]);
            if (!cust && d.cust) setCust(d.cust);
            setMsg(scanMsg('good', `${d.imei} を台帳に登録して追加しました`));
          }}
        />
      )}
      <div className="split">
        <Panel title={`対象端末（${lines.length}台）`} actions={lines.length > 0 && <button className="btn small" onClick={() => setLines([])}>クリア</button>}>
          {devices.error ? <div className="body muted">台帳を読み込めないため機種は自動入力されません</div> : null}
          {lines.length === 0 ? (
            <div className="state">消去が完了した端末のIMEIをスキャンしてください</div>
          ) : (
            <table className="t" data-testid="cert-lines">
              <thead>
                <tr>
                  <th>IMEI</th>
                  <th>機種</th>
                  <th>容量</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {lines.map((l, i) => (
                  <tr key={l.id}>
                    <td className="mono">{l.id}</td>
                    <td>
                      <input className="in" value={l.model} maxLength={60} onChange={(e) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, model: e.target.value } : x)))} aria-label="機種" />
                    </td>
                    <td>
                      <input className="in" value={l.storage} maxLength={20} placeholder="128GB" style={{ width: 90 }} onChange={(e) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, storage: e.target.value } : x)))} aria-label="容量" />
                    </td>
                    <td>
                      <button className="btn small" onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}>
                        外す
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
        <Panel title="証明書の発行">
          <div className="body">
            <div className="form">
              <label htmlFor="ct-cust">顧客</label>
              <input id="ct-cust" className="in" value={cust} maxLength={120} onChange={(e) => setCust(e.target.value)} />
              <label htmlFor="ct-method">消去方式</label>
              <select id="ct-method" className="in" value={method} onChange={(e) => setMethod(e.target.value as ErasureMethod)}>
                {METHODS.map((m) => (
                  <option key={m.key} value={m.key}>
                    {m.label}
                  </option>
                ))}
              </select>
              <label htmlFor="ct-operator">作業者</label>
              <div>
                <input id="ct-operator" className="in" value={operator} maxLength={60} readOnly={!!signedIn} placeholder="消去を行った作業者の氏名" onChange={(e) => setOperator(e.target.value)} />
                <div className="muted">{signedIn ? 'サインイン中の利用者です' : 'この作業台の作業者として記憶します'}</div>
              </div>
              <label htmlFor="ct-date">実施日</label>
              <input id="ct-date" className="in" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
              <span />
              <button className="btn primary" onClick={() => void issue()} disabled={busy || lines.length === 0 || !operator.trim() || !cust.trim()} data-testid="cert-issue">
                {busy ? '発行中…' : `証明書を発行（${lines.length}台）`}
              </button>
            </div>
            {issued && (
              <div className="state" style={{ textAlign: 'left', background: '#dafbe1', color: '#116329', borderRadius: 6, marginTop: 12, padding: 10 }} data-testid="cert-issued">
                <strong className="mono">{issued.no}</strong> を発行しました（{issued.count}台・{issued.method}・作業者 {issued.operator as string}）。台帳の {issued.erased ?? 0}台を「{method === 'destroy' ? '廃棄' : '消去済'}」にしました
                <div style={{ marginTop: 6 }}>
                  <button className="btn small" onClick={() => void openPdf(issued.no)}>
                    PDFを開く
                  </button>{' '}
                  {stationBridge() && (
                    <button className="btn small" onClick={() => void printPdf(issued.no)}>
                      印刷
                    </button>
                  )}
                </div>
              </div>
            )}
          </div>
        </Panel>
      </div>
      <Panel title="発行済み証明書">
        <Async state={certs} what="証明書一覧">
          {(d) =>
            d.certs.length === 0 ? (
              <div className="state">発行済みの証明書はありません</div>
            ) : (
              <table className="t">
                <thead>
                  <tr>
                    <th>証明書番号</th>
                    <th>実施日</th>
                    <th>顧客</th>
                    <th className="num">台数</th>
                    <th>方式</th>
                    <th>署名</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {d.certs.map((c) => (
                    <tr key={c.no}>
                      <td className="mono">{c.no}</td>
                      <td>{c.date}</td>
                      <td>{c.cust}</td>
                      <td className="num">{c.count}</td>
                      <td>
                        <Chip c={c.methodKey === 'destroy' ? 'c-red' : c.methodKey === 'clear' ? 'c-cyan' : 'c-blue'}>{c.method}</Chip>
                      </td>
                      <td data-testid="cert-signature">
                        <SignatureState c={c} />
                      </td>
                      <td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                        <a className="btn small" href={api.certPdfUrl(c.no)} target="_blank" rel="noopener">
                          PDF
                        </a>{' '}
                        {c.verifyUrl && (
                          <a className="btn small" href={c.verifyUrl} target="_blank" rel="noopener noreferrer" title="お客様・監査担当者向けの公開検証ページ">
                            検証ページ
                          </a>
                        )}{' '}
                        {c.signature && !c.revoked && (
                          <button className="btn small" onClick={() => setRevoking(c)} data-testid="cert-revoke">
                            失効
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Async>
      </Panel>
      {revoking && (
        <RevokeModal
          cert={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={(cert) => {
            setRevoking(null);
            certs.setData((d) => d && { ...d, certs: d.certs.map((x) => (x.no === cert.no ? { ...x, revoked: cert.revoked } : x)) });
            toast(`証明書 ${cert.no} を失効させました`);
          }}
        />
      )}
    </>
  );
}

/** 署名済 / 失効 / 署名なし (issued before certificates were signed). */
function SignatureState({ c }: { c: ErasureCert }) {
  if (c.revoked) {
    return (
      <span title={`失効理由: ${c.revoked.reason}`}>
        <Chip c="c-red">失効</Chip> <span className="muted">{new Date(c.revoked.at + 9 * 3600_000).toISOString().slice(0, 10)}</span>
      </span>
    );
  }
  if (c.signature) {
    return (
      <span title={`署名鍵 ${c.signature.kid}`}>
        <Chip c="c-green">署名済</Chip>
      </span>
    );
  }
  return <span className="muted">署名なし</span>;
}

function RevokeModal({ cert, onClose, onRevoked }: { cert: ErasureCert; onClose: () => void; onRevoked: (cert: { no: string; revoked: NonNullable<ErasureCert['revoked']> }) => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!reason.trim()) return toast('失効の理由を入力してください', true);
    setBusy(true);
    try {
      const r = await api.revokeCert(cert.no, reason.trim());
      onRevoked(r.cert as { no: string; revoked: NonNullable<ErasureCert['revoked']> });
    } catch (e) {
      toastError(e, '失効できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={`証明書 ${cert.no} の失効`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            キャンセル
          </button>
          <button className="btn danger" onClick={() => void submit()} disabled={busy || !reason.trim()} data-testid="cert-revoke-confirm">
            {busy ? '処理中…' : '失効させる'}
          </button>
        </>
      }
    >
      <div className="body">
        <p>失効した証明書も閲覧はできますが、検証ページでは「失効」と表示されます。この操作は取り消せません。</p>
        <label htmlFor="ct-revoke-reason">失効の理由</label>
        <input id="ct-revoke-reason" className="in" value={reason} maxLength={200} placeholder="例: 対象機器の記載誤りのため再発行" onChange={(e) => setReason(e.target.value)} />
      </div>
    </Modal>
  );
}
