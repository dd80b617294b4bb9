import { useState } from 'react';
import type { DaasQuote, DaasSend, DaasSim, DaasSimInput } from '../../../shared/api/schemas';
import { api } from '../api';
import { Panel, fmtTs, toast, yen } from '../components/ui';
import { ErrorBox, s } from './parts';

export const MODELS = ['iPhone 16', 'iPhone 16 Pro', 'iPhone 16e', 'iPhone 15', 'iPhone SE (第3世代)', 'iPad (第10世代)', 'iPad Air', 'Pixel 8a', 'AQUOS sense8', 'Galaxy A54'];
/** Send history shows the 50 newest, newest first (the server keeps the same 50). */
export const SEND_CAP = 50;
const CHANNELS = ['メール', 'FAX', '郵送', '手渡し', 'ポータル'];

interface SimForm {
  cust: string;
  model: string;
  qty: string;
  term: string;
  res: string;
  lcm: boolean;
  war: boolean;
}
const simForm = (sim: DaasSim | null | undefined): SimForm => ({
  cust: sim?.cust ?? '',
  model: sim?.model ?? 'iPhone 16',
  qty: String(sim?.qty ?? 10),
  term: String(sim?.term ?? 36),
  res: String(sim?.res ?? 20),
  lcm: sim?.lcm ?? true,
  war: sim?.war ?? true,
});
const numOrUndef = (v: string) => (v.trim() === '' || !Number.isFinite(Number(v)) ? undefined : Number(v));
const simInput = (f: SimForm): DaasSimInput => ({ cust: f.cust.trim(), model: f.model.trim() || undefined, qty: numOrUndef(f.qty), term: numOrUndef(f.term), res: numOrUndef(f.res), lcm: f.lcm, war: f.war });

/**
 * Simulator: the operator's last conditions are kept on the server (POST /api/daas/sim) and
 * come back on the next visit. Pricing stays on the server: 「見積を作成」 turns the conditions
 * into a draft quote with the server's monthly fee.
 */
export function SimPanel({ sim, onSaved, onQuote }: { sim: DaasSim | null; onSaved: (s: DaasSim) => void; onQuote: (q: DaasQuote) => void }) {
  const [f, setF] = useState<SimForm>(() => simForm(sim));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const set = <K extends keyof SimForm>(k: K, v: SimForm[K]) => setF((p) => ({ ...p, [k]: v }));
  const run = async (what: 'save' | 'quote') => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.saveDaasSim(simInput(f));
      setF(simForm(r.sim));
      onSaved(r.sim);
      if (what === 'quote') {
        const q = (await api.saveDaasQuote({ cust: r.sim.cust, model: r.sim.model, qty: r.sim.qty, term: r.sim.term, res: r.sim.res, lcm: r.sim.lcm, war: r.sim.war })).quote;
        onQuote(q);
        toast(`下書き見積 ${q.id} を作成しました（月額/台 ${yen(q.monthly)}・MRR ${yen(q.mrr)}）`);
      } else toast('シミュレーション条件を保存しました');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel
      title="DaaSシミュレーション"
      actions={
        <>
          <button className="btn" disabled={busy} onClick={() => void run('save')} data-testid="sim-save">
            条件を保存
          </button>
          <button className="btn primary" disabled={busy} onClick={() => void run('quote')} data-testid="sim-quote">
            この条件で見積を作成
          </button>
        </>
      }
    >
      <div className="body" style={{ display: 'grid', gap: 8 }} data-testid="daas-sim">
        <div className="row">
          <label className="row">
            顧客
            <input className="in" style={{ width: 200 }} maxLength={120} value={f.cust} onChange={(e) => set('cust', e.target.value)} aria-label="シミュレーションの顧客" />
          </label>
          <label className="row">
            機種
            <input className="in" style={{ width: 160 }} maxLength={60} list="sim-models" value={f.model} onChange={(e) => set('model', e.target.value)} aria-label="シミュレーションの機種" />
            <datalist id="sim-models">
              {MODELS.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </label>
          <label className="row">
            台数
            <input className="in num" style={{ width: 80 }} type="number" min={1} value={f.qty} onChange={(e) => set('qty', e.target.value)} aria-label="シミュレーションの台数" />
          </label>
          <label className="row">
            期間（12〜60か月）
            <input className="in num" style={{ width: 64 }} type="number" min={12} max={60} value={f.term} onChange={(e) => set('term', e.target.value)} aria-label="シミュレーションの契約期間" />
          </label>
          <label className="row">
            残価率（0〜50%）
            <input className="in num" style={{ width: 64 }} type="number" min={0} max={50} value={f.res} onChange={(e) => set('res', e.target.value)} aria-label="シミュレーションの残価率" />
          </label>
          <label className="row">
            <input type="checkbox" checked={f.lcm} onChange={(e) => set('lcm', e.target.checked)} /> LCM
          </label>
          <label className="row">
            <input type="checkbox" checked={f.war} onChange={(e) => set('war', e.target.checked)} /> 延長保証
          </label>
        </div>
        <div className="muted" style={{ fontSize: 12 }}>
          {sim?.updated ? `保存済みの条件（${fmtTs(sim.updated)} 保存）を表示しています。` : 'まだ条件は保存されていません（初期値を表示しています）。'}
          台数・期間・残価率は範囲外なら範囲内に丸めて保存されます。
        </div>
        {error !== null && <ErrorBox title="シミュレーション条件を保存できませんでした" error={error} testId="sim-error" />}
      </div>
    </Panel>
  );
}

/** Send one quote to its customer (POST /api/daas/send) and record it in the history. */
export function SendForm({ quote, onSent }: { quote: DaasQuote; onSent: (s: DaasSend) => void }) {
  const [cust, setCust] = useState(quote.cust ?? '');
  const [channel, setChannel] = useState(CHANNELS[0]!);
  const [to, setTo] = useState('');
  const [doc, setDoc] = useState(`DaaS見積書 ${quote.id}`);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = async () => {
    if (!cust.trim()) return toast('送付先の顧客名を入力してください', true);
    setBusy(true);
    setError(null);
    try {
      const r = await api.sendDaas({ quoteId: quote.id, cust: cust.trim(), channel, to: to.trim(), doc: doc.trim() });
      onSent(r.send);
      toast(`${r.send.cust ?? cust} へ${r.send.channel ?? channel}で送付を記録しました`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div style={{ display: 'grid', gap: 6, borderTop: '1px solid var(--line)', paddingTop: 8 }} data-testid="daas-send">
      <strong>見積を送付</strong>
      <div className="form">
        <label htmlFor="send-cust">送付先の顧客</label>
        <input id="send-cust" className="in" maxLength={120} value={cust} onChange={(e) => setCust(e.target.value)} />
        <label htmlFor="send-channel">送付方法</label>
        <select id="send-channel" className="in" value={channel} onChange={(e) => setChannel(e.target.value)}>
          {CHANNELS.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <label htmlFor="send-to">宛先</label>
        <input id="send-to" className="in" maxLength={200} placeholder="メールアドレス・FAX番号・住所など" value={to} onChange={(e) => setTo(e.target.value)} />
        <label htmlFor="send-doc">書類名</label>
        <input id="send-doc" className="in" maxLength={200} value={doc} onChange={(e) => setDoc(e.target.value)} />
      </div>
      <div className="row">
        <button className="btn primary small" disabled={busy} onClick={() => void send()} data-testid="send-submit">
          {busy ? '送付中…' : '送付を記録'}
        </button>
      </div>
      {error !== null && <ErrorBox title="送付できませんでした" error={error} testId="send-error" />}
    </div>
  );
}

/** Newest first, at most 50 rows. */
export function SendHistory({ sends }: { sends: DaasSend[] }) {
  const rows = [...sends].sort((a, b) => (b.ts ?? 0) - (a.ts ?? 0)).slice(0, SEND_CAP);
  return (
    <Panel title={<>送付履歴 <span className="muted">（新しい順・最新{SEND_CAP}件まで）</span></>}>
      {rows.length === 0 ? (
        <div className="state">送付履歴はありません</div>
      ) : (
        <div style={{ maxHeight: 360, overflow: 'auto' }} data-testid="daas-sends">
          <table className="t">
            <thead>
              <tr>
                <th style={{ width: 110 }}>日時</th>
                <th>顧客</th>
                <th style={{ width: 80 }}>送付方法</th>
                <th>宛先</th>
                <th>書類</th>
                <th>機種 × 台数</th>
                <th style={{ width: 100 }}>MRR</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={r.id ?? `${r.ts}-${i}`}>
                  <td>{fmtTs(r.ts)}</td>
                  <td>{s(r.cust)}</td>
                  <td>{s(r.channel)}</td>
                  <td>{r.to || <span className="muted">—</span>}</td>
                  <td>{r.doc || <span className="muted">—</span>}</td>
                  <td>{r.model ? `${r.model} × ${s(r.qty)}台` : <span className="muted">—</span>}</td>
                  <td className="num">{yen(r.mrr)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
