import { useEffect, useRef, useState } from 'react';
import type { Quote, QuoteInput, QuoteTotals } from '../../../shared/api/schemas';
import { QUOTE_PATTERN_LABELS, QUOTE_SUBJECT_MAX } from '../../../shared/api/contracts/quotes';
import { api, describeError } from '../api';
import { Async, activateOnKey, Panel, confirmAction, fmtTs, toast, toastError, useLoad, yen } from '../components/ui';

type Line = { n: string; q: number; p: number; d: string };
type Section = 'ini' | 'run';
const blank = (): Line => ({ n: '', q: 1, p: 0, d: '' });
const toLines = (l: Quote['ini']): Line[] => l.map((x) => ({ n: String(x.n), q: x.q, p: x.p, d: String(x.d ?? '') }));

function LinesTable({ title, lines, onChange, catalog, readOnly }: { title: string; lines: Line[]; onChange: (l: Line[]) => void; catalog: Line[]; readOnly: boolean }) {
  const set = (i: number, k: keyof Line, v: string) => onChange(lines.map((l, j) => (j === i ? { ...l, [k]: k === 'q' || k === 'p' ? Math.max(0, Math.trunc(Number(v) || 0)) : v } : l)));
  return (
    <Panel
      title={title}
      actions={
        readOnly ? undefined : (
        <>
          <select className="in" value="" onChange={(e) => { const c = catalog[Number(e.target.value)]; if (c) onChange([...lines, { ...c }]); }} aria-label={`${title}に標準品目を追加`}>
            <option value="">標準品目から追加…</option>
            {catalog.map((c, i) => (
              <option key={`${c.n}-${i}`} value={i}>
                {c.n}（{yen(c.p)}）
              </option>
            ))}
          </select>
          <button className="btn small" onClick={() => onChange([...lines, blank()])}>
            ＋ 行を追加
          </button>
        </>
        )
      }
    >
      <table className="t">
        <thead>
          <tr>
            <th>項目</th>
            <th style={{ width: 80 }}>数量</th>
            <th style={{ width: 110 }}>単価</th>
            <th style={{ width: 110 }} className="num">
              金額
            </th>
            <th style={{ width: 40 }} />
          </tr>
        </thead>
        <tbody>
          {lines.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                明細がありません
              </td>
            </tr>
          )}
          {lines.map((l, i) => (
            <tr key={i}>
              <td>
                <input className="in" style={{ width: '100%' }} value={l.n} maxLength={120} disabled={readOnly} onChange={(e) => set(i, 'n', e.target.value)} aria-label="項目" />
              </td>
              <td>
                <input className="in num" style={{ width: '100%' }} type="number" min={0} value={l.q} disabled={readOnly} onChange={(e) => set(i, 'q', e.target.value)} aria-label="数量" />
              </td>
              <td>
                <input className="in num" style={{ width: '100%' }} type="number" min={0} value={l.p} disabled={readOnly} onChange={(e) => set(i, 'p', e.target.value)} aria-label="単価" />
              </td>
              <td className="num">{yen(l.q * l.p)}</td>
              <td>
                {!readOnly && (
                  <button className="btn small danger" onClick={() => onChange(lines.filter((_, j) => j !== i))} aria-label="行を削除">
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

function Totals({ totals, error }: { totals: QuoteTotals | null; error: string | null }) {
  if (error) return <div className="state error">{error}</div>;
  if (!totals) return <div className="state">計算中…</div>;
  const rows: [string, number | null | undefined, boolean?][] = [
    ['初期費用 小計', totals.ini],
    ['消費税（10%）', totals.iniTax],
    ['初期費用 合計', totals.iniTotal, true],
    ['月額費用 小計', totals.run],
    ['消費税（10%）', totals.runTax],
    ['月額費用 合計', totals.runTotal, true],
    ['年間継続収益（月額×12）', totals.arr],
    ['初年度合計（初期＋年間）', totals.y1, true],
    [`粗利（粗利率 ${totals.gpRate ?? '—'}%）`, totals.gp],
  ];
  return (
    <table className="totals" style={{ width: '100%' }} data-testid="quote-totals">
      <tbody>
        {rows.map(([l, v, big], i) => (
          <tr key={i} className={big ? 'big' : undefined}>
            <td>{l}</td>
            <td className="num">{yen(v)}</td>
          </tr>
        ))}
        <tr>
          <td>1台あたり</td>
          <td className="num">{totals.perDevice === null || totals.perDevice === undefined ? '—' : yen(totals.perDevice)}</td>
        </tr>
        <tr>
          <td colSpan={2} className="muted">
            {totals.volumeApplied ? `ボリューム値引き適用（${totals.volumeQty}台）` : `ボリューム値引きは${totals.volumeMinQty ?? 1000}台以上で適用`}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export function QuotesScreen() {
  const quotes = useLoad(() => api.quotes());
  const catalog = useLoad(() => api.quoteCatalog());
  const customers = useLoad(() => api.customers());
  const [id, setId] = useState<string | null>(null);
  const [custId, setCustId] = useState('');
  const [cust, setCust] = useState('');
  const [pattern, setPattern] = useState<'A' | 'B'>('A');
  const [costRate, setCostRate] = useState(45);
  const [qty, setQty] = useState(0);
  /** Where 台数 came from: nothing yet, the customer's ledger count (a pre-fill) or the manager's typing. */
  const [qtyFrom, setQtyFrom] = useState<'none' | 'ledger' | 'typed'>('none');
  const [subject, setSubject] = useState('');
  const [ini, setIni] = useState<Line[]>([]);
  const [run, setRun] = useState<Line[]>([]);
  const [totals, setTotals] = useState<QuoteTotals | null>(null);
  const [calcError, setCalcError] = useState<string | null>(null);
  const [issuedAt, setIssuedAt] = useState<unknown>(null);
  const seq = useRef(0);

  const body = (): QuoteInput => ({ id, custId: custId || null, cust: cust || undefined, pattern, costRate, qty, ini, run, subject });
  useEffect(() => {
    const n = ++seq.current;
    const t = setTimeout(() => {
      api
        .previewQuote(body())
        .then((r) => {
          if (n !== seq.current) return;
          setTotals(r.quote.totals ?? null);
          setCalcError(null);
        })
        .catch((e: unknown) => n === seq.current && setCalcError(describeError(e)));
    }, 200);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [custId, cust, pattern, costRate, qty, ini, run, subject]);

  const open = (q: Quote) => {
    setId(q.id ?? null);
    setCustId(q.custId ?? '');
    setCust(q.cust ?? '');
    setPattern(q.pattern === 'B' ? 'B' : 'A');
    setCostRate(q.costRate ?? 45);
    setQty(typeof q.qty === 'number' ? q.qty : 0);
    setQtyFrom(typeof q.qty === 'number' ? 'typed' : 'none');
    setSubject(typeof q.subject === 'string' ? q.subject : '');
    setIni(toLines(q.ini));
    setRun(toLines(q.run));
    setIssuedAt(q.issuedAt ?? null);
  };
  const startNew = async () => {
    const c = customers.data?.customers.find((x) => x.id === custId);
    if (!c && !cust.trim()) return toast('顧客を選択するか、顧客名を入力してください', true);
    try {
      // 台数 as shown is what the lines are built from; the ledger count only pre-filled the box.
      const devices = qtyFrom === 'none' ? {} : { devices: String(qty) };
      const { quote } = await api.newQuote(c ? { custId: c.id, pattern, ...devices } : { cust, pattern, ...devices });
      open(quote);
      setId(null);
    } catch (e) {
      toastError(e, '見積を作成できませんでした');
    }
  };
  const save = async () => {
    try {
      const { quote } = id ? await api.updateQuote(id, body()) : await api.createQuote(body());
      open(quote);
      quotes.setData((d) => d && { ...d, quotes: [quote, ...d.quotes.filter((x) => x.id !== quote.id)] });
      toast(`見積 ${quote.id} を保存しました`);
      return quote;
    } catch (e) {
      toastError(e, '保存できませんでした');
      return null;
    }
  };
  const issue = async () => {
    if (!(await confirmAction('この見積を発行します。発行日が確定します。よろしいですか？', '発行する'))) return;
    const q = await save();
    if (!q?.id) return;
    try {
      const r = await api.issueQuote(q.id);
      open(r.quote);
      quotes.setData((d) => d && { ...d, quotes: [r.quote, ...d.quotes.filter((x) => x.id !== r.quote.id)] });
      toast(`見積 ${q.id} を発行しました`);
    } catch (e) {
      toastError(e, '発行できませんでした');
    }
  };
  const locked = typeof issuedAt === 'number';
  /** 台数 drives the per-device lines: a line counted per device (its 数量 equals the old 台数) follows the new 台数. */
  const changeQty = (next: number) => {
    setQtyFrom('typed');
    const prev = qty;
    if (prev > 0 && next > 0) {
      const follow = (ls: Line[]) => ls.map((l) => (Number(l.q) === prev ? { ...l, q: next } : l));
      setIni(follow);
      setRun(follow);
    }
    setQty(next);
  };
  /** Choosing a customer pre-fills 台数 with the ledger's count unless the manager already typed one. */
  const chooseCustomer = async (next: string) => {
    setCustId(next);
    setCust(customers.data?.customers.find((c) => c.id === next)?.name ?? cust);
    if (!next || qtyFrom === 'typed' || locked) return;
    try {
      const { quote } = await api.newQuote({ custId: next, pattern });
      setQty(typeof quote.qty === 'number' ? quote.qty : 0);
      setQtyFrom('ledger');
    } catch {
      /* no pre-fill: the box keeps its value */
    }
  };
  const makeInvoice = async () => {
    if (!id) return;
    if (!(await confirmAction(`見積 ${id} の明細から請求書（下書き）を作成します。よろしいですか？`, '作成する'))) return;
    try {
      const { invoice } = await api.invoiceFromQuote(id);
      toast(`請求書 ${invoice.id}（下書き・合計 ${yen(invoice.amount)}）を作成しました。請求書画面で確認して発行してください`);
    } catch (e) {
      toastError(e, '請求書を作成できませんでした');
    }
  };
  const revise = async () => {
    if (!id) return;
    try {
      const r = await api.raw.post(`/api/quote/${encodeURIComponent(id)}/revise`);
      const q = r.quote as Quote;
      open(q);
      quotes.setData((d) => d && { ...d, quotes: [q, ...d.quotes] });
      toast(`改訂版 ${q.id ?? ''} を作成しました（元の見積 ${id} は発行済みのまま残ります）`);
    } catch (e) {
      toastError(e, '改訂版を作成できませんでした');
    }
  };
  const cat = catalog.data?.catalog;
  return (
    <>
      <Panel title={id ? `見積 ${id}${issuedAt ? '（発行済）' : ''}` : '新しい見積'}>
        <div className="body row">
          <select className="in" value={custId} disabled={locked} onChange={(e) => void chooseCustomer(e.target.value)} aria-label="顧客" style={{ maxWidth: 260 }}>
            <option value="">（顧客を選択）</option>
            {customers.data?.customers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <input className="in" value={cust} maxLength={200} placeholder="宛名（御中）" disabled={locked} onChange={(e) => setCust(e.target.value)} aria-label="宛名" style={{ width: 220 }} />
          <input className="in" value={subject} maxLength={QUOTE_SUBJECT_MAX} placeholder="件名（例: 営業部 iPhone 入替）" disabled={locked} onChange={(e) => setSubject(e.target.value)} aria-label="件名" style={{ width: 240 }} />
          <label className="muted">プラン</label>
          <select className="in" value={pattern} disabled={locked} onChange={(e) => setPattern(e.target.value === 'B' ? 'B' : 'A')} aria-label="プラン">
            <option value="A">{QUOTE_PATTERN_LABELS.A}</option>
            <option value="B">{QUOTE_PATTERN_LABELS.B}</option>
          </select>
          <label className="muted">台数</label>
          <input className="in num" type="number" min={0} value={qty} disabled={locked} onChange={(e) => changeQty(Math.max(0, Math.trunc(Number(e.target.value) || 0)))} style={{ width: 80 }} aria-label="台数" />
          <label className="muted">原価率(%)</label>
          <input className="in num" type="number" min={0} max={100} value={costRate} disabled={locked} onChange={(e) => setCostRate(Number(e.target.value))} style={{ width: 64 }} aria-label="原価率" />
          <span className="spacer" style={{ flex: 1 }} />
          <button className="btn" onClick={() => void startNew()}>
            標準構成で作成
          </button>
          {locked ? (
            <>
              <button className="btn primary" onClick={() => void revise()} data-testid="quote-revise">
                改訂版を作成
              </button>
              <button className="btn" onClick={() => void makeInvoice()} data-testid="quote-invoice">
                見積から請求書を作成
              </button>
            </>
          ) : (
            <>
              <button className="btn primary" onClick={() => void save()} data-testid="quote-save">
                保存
              </button>
              <button className="btn" onClick={() => void issue()} disabled={!custId}>
                発行
              </button>
            </>
          )}
          {id && (
            <a className="btn" href={api.quoteCsvUrl(id)} download>
              CSV出力
            </a>
          )}
          {id && (
            <a className="btn" href={`/api/quote/${encodeURIComponent(id)}/pdf`} target="_blank" rel="noopener" data-testid="quote-pdf">
              PDF
            </a>
          )}
        </div>
        {locked && (
          <div className="body muted" data-testid="quote-locked" role="status">
            この見積は発行済みのため変更できません。内容を変える場合は「改訂版を作成」で新しい版を作ってください。
          </div>
        )}
      </Panel>
      <div className="split">
        <div style={{ display: 'grid', gap: 12 }}>
          <LinesTable title="初期費用" lines={ini} onChange={setIni} catalog={cat ? toLines(cat.initial) : []} readOnly={locked} />
          <LinesTable title="月額費用" lines={run} onChange={setRun} catalog={cat ? toLines(cat.running) : []} readOnly={locked} />
        </div>
        <Panel title="合計（サーバー計算）">
          <div className="body">
            <Totals totals={totals} error={calcError} />
          </div>
        </Panel>
      </div>
      <Panel title="保存済みの見積">
        <Async state={quotes} what="見積一覧">
          {(d) =>
            d.quotes.length === 0 ? (
              <div className="state">保存済みの見積はありません</div>
            ) : (
              <table className="t">
                <thead>
                  <tr>
                    <th>見積番号</th>
                    <th>顧客</th>
                    <th>プラン</th>
                    <th className="num">初期（税込）</th>
                    <th className="num">月額（税込）</th>
                    <th>更新</th>
                    <th>状態</th>
                  </tr>
                </thead>
                <tbody>
                  {d.quotes.map((q) => (
                    <tr key={q.id ?? ''} className="clickable" {...activateOnKey(() => open(q))}>
                      <td className="mono">{q.id}</td>
                      <td>{q.cust}</td>
                      <td>{QUOTE_PATTERN_LABELS[q.pattern === 'B' ? 'B' : 'A']}</td>
                      <td className="num">{yen(q.totals?.iniTotal)}</td>
                      <td className="num">{yen(q.totals?.runTotal)}</td>
                      <td>{fmtTs(q.updatedAt)}</td>
                      <td>{q.issuedAt ? '発行済' : '下書き'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Async>
      </Panel>
    </>
  );
}
