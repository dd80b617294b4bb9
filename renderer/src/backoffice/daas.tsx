import { useState } from 'react';
import { DAAS_STATUSES, type DaasQuote, type DaasQuoteInput, type DaasSend, type DaasStatus, type DaasTotals } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Chip, Panel, toast, useLoad, yen } from '../components/ui';
import { MODELS, SEND_CAP, SendForm, SendHistory, SimPanel } from './daas-extras';
import { ErrorBox, Kpis, optNum, optStr, s, type FormValues } from './parts';

const LABEL: Record<DaasStatus, [string, string]> = { draft: ['下書き', 'c-gray'], proposed: ['提案中', 'c-blue'], approved: ['承認', 'c-cyan'], contracted: ['契約中', 'c-green'] };
const statusOf = (q: DaasQuote): DaasStatus => ((DAAS_STATUSES as readonly string[]).includes(q.status ?? '') ? (q.status as DaasStatus) : 'draft');

function Totals({ totals }: { totals: DaasTotals }) {
  return (
    <Kpis
      testId="daas-totals"
      items={[
        ['契約台数', `${totals.units.toLocaleString()} 台`],
        ['契約MRR', yen(totals.mrr)],
        ['ARR', yen(totals.arr)],
        ['契約件数', `${totals.contracts} 件`],
        ['商談中（提案・承認）', `${totals.pipelineUnits.toLocaleString()} 台 / ${yen(totals.pipelineMrr)}`],
      ]}
    />
  );
}

/** Status stepper: one stage forward, any stage back; the server's refusal stays on screen. */
function StatusPanel({ quote, onMoved, onSent }: { quote: DaasQuote; onMoved: (q: DaasQuote, t: DaasTotals) => void; onSent: (s: DaasSend) => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const cur = statusOf(quote);
  const ci = DAAS_STATUSES.indexOf(cur);
  const move = async (to: DaasStatus) => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.setDaasStatus(quote.id, to);
      onMoved(r.quote, r.totals);
      toast(`${quote.id} を「${LABEL[to][0]}」にしました`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title={<>DaaS見積 {quote.id}</>}>
      <div className="body" style={{ display: 'grid', gap: 10 }} data-testid="daas-status">
        <div className="form">
          <label>顧客</label>
          <div>{quote.cust || '（未入力）'}</div>
          <label>機種・台数</label>
          <div>
            {quote.model} × {quote.qty}台・{quote.term}か月・残価{quote.res}%
          </div>
          <label>月額/台・MRR</label>
          <div>
            {yen(quote.monthly)} / {yen(quote.mrr)}
          </div>
          <label>有効期限</label>
          <div>{quote.expires || '（未入力）'}</div>
          <label>状態</label>
          <div>
            <Chip c={LABEL[cur][1]}>{LABEL[cur][0]}</Chip> {quote.contracted && <span className="muted">契約日 {quote.contracted}</span>}
          </div>
        </div>
        <div className="row" role="group" aria-label="状態を変更">
          {DAAS_STATUSES.map((st, i) => (
            <button key={st} className={`btn small${i === ci ? ' primary' : ''}`} disabled={busy || i === ci} onClick={() => void move(st)}>
              {i < ci ? '← ' : i > ci ? '→ ' : ''}
              {LABEL[st][0]}
            </button>
          ))}
        </div>
        <div className="muted" style={{ fontSize: 12 }}>
          進めるのは1段階ずつです（下書き→提案中→承認→契約中）。承認・契約には顧客名と有効期限が必要です。前の段階へはいつでも戻せます。
        </div>
        {error !== null && <ErrorBox title="状態を変更できませんでした" error={error} testId="daas-error" />}
        <SendForm quote={quote} onSent={onSent} />
      </div>
    </Panel>
  );
}

const quoteInput = (v: FormValues): DaasQuoteInput => ({
  cust: optStr(v.cust),
  model: optStr(v.model) || undefined,
  qty: optNum(v.qty),
  term: optNum(v.term),
  res: optNum(v.res),
  lcm: v.lcm === true,
  war: v.war === true,
  price: optNum(v.price) || undefined,
  expires: optStr(v.expires),
});

export function DaasScreen() {
  const data = useLoad(() => api.daas());
  const totals = data.data?.totals;
  const setTotals = (t: DaasTotals) => data.setData((d) => d && { ...d, totals: t });
  const [quotesKey, setQuotesKey] = useState(0);
  const addSend = (x: DaasSend) => data.setData((d) => d && { ...d, sends: [x, ...(d.sends ?? []).filter((y) => y.id !== x.id)].slice(0, SEND_CAP) });
  return (
    <>
      {totals && <Totals totals={totals} />}
      {data.data && <SimPanel sim={data.data.sim ?? null} onSaved={(sim) => data.setData((d) => d && { ...d, sim })} onQuote={() => setQuotesKey((k) => k + 1)} />}
      {data.error !== null && !data.data && <ErrorBox title="DaaSの情報を読み込めませんでした" error={data.error} />}
      <CrudTable<DaasQuote>
        what="DaaS見積"
        title="DaaS見積"
        testId="daas-quotes"
        load={async () => (await api.daas()).quotes}
        idOf={(q) => q.id}
        onChanged={data.reload}
        reloadKey={quotesKey}
        columns={[
          { key: 'cust', label: '顧客', render: (q) => <>{q.cust || <span className="muted">（未入力）</span>}<div className="mono muted" style={{ fontSize: 11 }}>{q.id}</div></> },
          { key: 'model', label: '機種 × 台数', render: (q) => `${s(q.model)} × ${s(q.qty)}台` },
          { key: 'term', label: '期間', width: 70, className: 'num', render: (q) => `${s(q.term)}か月` },
          { key: 'mrr', label: 'MRR', width: 100, className: 'num', render: (q) => yen(q.mrr) },
          { key: 'expires', label: '有効期限', width: 96 },
          { key: 'status', label: '状態', width: 70, render: (q) => <Chip c={LABEL[statusOf(q)][1]}>{LABEL[statusOf(q)][0]}</Chip> },
        ]}
        fields={[
          { key: 'cust', label: '顧客', max: 120 },
          { key: 'model', label: '機種', max: 60, suggest: MODELS, required: true },
          { key: 'qty', label: '台数', type: 'number', required: true },
          { key: 'term', label: '契約期間（12〜60か月）', type: 'number' },
          { key: 'res', label: '残価率（0〜50%）', type: 'number' },
          { key: 'lcm', label: 'LCM（キッティング・回収・消去）', type: 'checkbox' },
          { key: 'war', label: '延長保証（代替機付き）', type: 'checkbox' },
          { key: 'price', label: '端末単価（円）', type: 'number', hint: '空欄で機種の定価' },
          { key: 'expires', label: '有効期限', type: 'date' },
        ]}
        defaults={{ model: 'iPhone 16', qty: 10, term: 36, res: 20, lcm: true, war: true }}
        create={async (v) => (await api.saveDaasQuote(quoteInput(v))).quote}
        update={async (id, v) => (await api.saveDaasQuote({ id, ...quoteInput(v) })).quote}
        remove={(id) => api.deleteDaasQuote(id)}
        detail={(q, replace) => (
          <StatusPanel
            key={q.id}
            quote={q}
            onMoved={(nq, t) => {
              replace(nq);
              setTotals(t);
            }}
            onSent={addSend}
          />
        )}
      />
      {data.data && <SendHistory sends={data.data.sends ?? []} />}
    </>
  );
}
