import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api/client';
import type { Inbound, InboundCounts } from '../../../shared/api/contracts/inbound';
import { describeError } from '../api';
import { Chip, ErrorState, Loading, Panel, confirmAction, toast, useLoad } from '../components/ui';
import { inboundApi } from '../lib/inbound-api';
import { useScanHandler, type ScanHandler } from '../lib/scan-service';
import { playScanSound, type ScanSound } from '../lib/sound';
import { InboundUpload, RowErrors } from './inbound-upload';
import { ScanField } from './ledger-scan';

type State = 'waiting' | 'saving' | 'received' | 'duplicate' | 'unexpected' | 'registered' | 'invalid' | 'error';
interface Entry {
  seq: number;
  imei: string;
  state: State;
  message: string;
}

const LABEL: Record<State, { text: string; chip: string; panel: string; sound?: ScanSound }> = {
  waiting: { text: '待機中', chip: 'c-gray', panel: '' },
  saving: { text: '照合中…', chip: 'c-blue', panel: '' },
  received: { text: '入荷', chip: 'c-green', panel: 's-ok', sound: 'ok' },
  duplicate: { text: '入荷済み（重複）', chip: 'c-orange', panel: 's-duplicate', sound: 'duplicate' },
  unexpected: { text: '予定外', chip: 'c-red', panel: 's-error', sound: 'error' },
  registered: { text: '予定外・台帳登録', chip: 'c-orange', panel: 's-ok', sound: 'ok' },
  invalid: { text: '読取エラー', chip: 'c-red', panel: 's-error', sound: 'error' },
  error: { text: 'エラー', chip: 'c-red', panel: 's-error', sound: 'error' },
};

const listLabel = (l: Inbound) => `${l.no} ${l.name}（${l.cust}）残り ${l.counts.missing} / ${l.counts.expected}台`;

/** Picking an open list (keyboard: the list is focused, Enter starts), importing a new one, or reading the report of a closed one. */
function Picker({ onStart }: { onStart: (l: Inbound) => void }) {
  const lists = useLoad(() => inboundApi.list());
  const [picked, setPicked] = useState('');
  const [upload, setUpload] = useState(false);
  const [imported, setImported] = useState<{ errors: Parameters<typeof RowErrors>[0]['errors']; errorCount: number } | null>(null);
  const open = (lists.data?.inbounds ?? []).filter((l) => l.status === 'open');
  const closed = (lists.data?.inbounds ?? []).filter((l) => l.status === 'closed').slice(0, 10);
  const chosen = open.find((l) => l.id === picked) ?? open[0];
  const start = () => chosen && onStart(chosen);
  return (
    <Panel
      title="入荷予定から入荷（予定リストと照合）"
      actions={
        <button className="btn" onClick={() => setUpload(true)} data-testid="inbound-open-upload">
          入荷予定を取り込む
        </button>
      }
    >
      {lists.error && !lists.data ? (
        <ErrorState error={lists.error} what="入荷予定" onRetry={lists.reload} />
      ) : !lists.data ? (
        <Loading what="入荷予定" />
      ) : (
        <form
          className="form body"
          data-testid="inbound-picker"
          onSubmit={(e) => {
            e.preventDefault();
            start();
          }}
        >
          <label htmlFor="ib-pick">入荷予定</label>
          {open.length === 0 ? (
            <span>受付中の入荷予定はありません。「入荷予定を取り込む」から CSV / Excel を取り込んでください。</span>
          ) : (
            <select
              id="ib-pick"
              className="in"
              value={chosen?.id ?? ''}
              autoFocus
              onChange={(e) => setPicked(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  start();
                }
              }}
            >
              {open.map((l) => (
                <option key={l.id} value={l.id}>
                  {listLabel(l)}
                </option>
              ))}
            </select>
          )}
          <span />
          <div className="row">
            <button className="btn primary" type="submit" disabled={!chosen} data-testid="inbound-start">
              照合スキャンを開始（Enter）
            </button>
          </div>
          {imported && (
            <>
              <span />
              <RowErrors errors={imported.errors} count={imported.errorCount} />
            </>
          )}
          {closed.length > 0 && (
            <>
              <span>締め済み</span>
              <ul style={{ margin: 0 }}>
                {closed.map((l) => (
                  <li key={l.id}>
                    {l.no} {l.name}（入荷 {l.counts.received} / 予定 {l.counts.expected}・予定外 {l.counts.unexpected}）{' '}
                    <a href={inboundApi.reportUrl(l.id, 'pdf')} target="_blank" rel="noreferrer">
                      差異報告書PDF
                    </a>{' '}
                    <a href={inboundApi.reportUrl(l.id, 'csv')}>CSV</a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </form>
      )}
      {upload && (
        <InboundUpload
          onClose={() => setUpload(false)}
          onImported={(r) => {
            setUpload(false);
            setImported({ errors: r.errors, errorCount: r.errorCount });
            setPicked(r.inbound.id);
            toast(`${r.inbound.no} を取り込みました（${r.inbound.counts.expected}台${r.errorCount ? `・取り込まない行 ${r.errorCount}` : ''}）`);
            lists.reload();
          }}
        />
      )}
    </Panel>
  );
}

/**
 * 入荷セッション「入荷予定から」: scans are checked against the chosen list. A listed IMEI is received into the ledger
 * (with the list's customer and the row's model and serial), a repeated one is a duplicate, one not on the list
 * is recorded as unexpected (Ctrl+Enter registers it after all). Expected / received / remaining are shown
 * large with the same panel and sounds as the plain session; scans queue and none is lost.
 */
export function InboundReceiving() {
  const [list, setList] = useState<Inbound | null>(null);
  const [counts, setCounts] = useState<InboundCounts | null>(null);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [report, setReport] = useState<Inbound | null>(null);
  const queue = useRef<{ seq: number; imei: string; confirm: boolean }[]>([]);
  const working = useRef(false);
  const seq = useRef(0);
  const unexpected = useRef(new Set<string>());
  const listRef = useRef(list);
  listRef.current = list;

  const update = (s: number, patch: Partial<Entry>) => setEntries((l) => l.map((e) => (e.seq === s ? { ...e, ...patch } : e)));
  const add = (imei: string, state: State, message: string): number => {
    const s = ++seq.current;
    setEntries((l) => [{ seq: s, imei, state, message }, ...l]);
    return s;
  };
  const finish = (s: number, state: State, message: string) => {
    update(s, { state, message });
    const sound = LABEL[state].sound;
    if (sound) playScanSound(sound);
  };

  const work = async () => {
    if (working.current) return;
    working.current = true;
    try {
      for (let next = queue.current.shift(); next; next = queue.current.shift()) {
        const l = listRef.current;
        if (!l) break;
        update(next.seq, { state: 'saving', message: '照合中…' });
        try {
          const r = await inboundApi.scan(l.id, next.imei, next.confirm);
          if (r.result === 'received') {
            setCounts((c) => c && { ...c, received: c.received + 1, missing: Math.max(0, c.missing - 1) });
            const model = r.line.model || r.device?.model || '';
            finish(next.seq, 'received', `予定どおり入荷しました${model ? `（${String(model)}）` : ''}`);
          } else if (r.result === 'duplicate') {
            finish(next.seq, 'duplicate', 'この端末はすでに入荷済みです');
          } else {
            if (!unexpected.current.has(next.imei)) {
              unexpected.current.add(next.imei);
              setCounts((c) => c && { ...c, unexpected: c.unexpected + 1 });
            }
            if (r.line.device) finish(next.seq, 'registered', '予定外の端末を台帳に登録しました');
            else finish(next.seq, 'unexpected', '入荷予定にない端末です。取り分けてください（Ctrl+Enter で台帳に登録）');
          }
        } catch (err) {
          if (err instanceof ApiError && err.error === 'invalid imei') finish(next.seq, 'invalid', describeError(err));
          else finish(next.seq, 'error', describeError(err));
        }
      }
    } finally {
      working.current = false;
    }
  };

  const enqueue = (imei: string, confirm = false) => {
    const s = add(imei, 'waiting', '照合待ち');
    queue.current.push({ seq: s, imei, confirm });
    void work();
  };

  const onScan: ScanHandler = (scan) => {
    if (!listRef.current) {
      toast('入荷予定を選んで「照合スキャンを開始」を押してから、スキャンしてください', true);
      playScanSound('error');
      return;
    }
    if (scan.kind !== 'imei') {
      add(scan.value, 'invalid', scan.message);
      playScanSound('error');
      return;
    }
    enqueue(scan.value);
  };
  useScanHandler(onScan);

  const last = entries[0];
  const lastUnexpected = entries.find((e) => e.state === 'unexpected');
  useEffect(() => {
    const k = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && lastUnexpected) {
        e.preventDefault();
        enqueue(lastUnexpected.imei, true);
      }
    };
    window.addEventListener('keydown', k);
    return () => window.removeEventListener('keydown', k);
  });

  const start = async (l: Inbound) => {
    try {
      const d = await inboundApi.detail(l.id);
      unexpected.current = new Set(d.lines.filter((x) => x.state === 'unexpected').map((x) => x.imei));
      setCounts(d.inbound.counts);
      setList(d.inbound);
      setEntries([]);
      setReport(null);
    } catch (err) {
      toast(describeError(err), true);
    }
  };

  const close = async () => {
    if (!list) return;
    if (!(await confirmAction(`${list.no} を締めて差異報告書を作成しますか？締めた後はスキャンできません。`, '締める'))) return;
    try {
      const r = await inboundApi.close(list.id);
      setReport(r.inbound);
      setCounts(r.inbound.counts);
      setList(null);
    } catch (err) {
      toast(describeError(err), true);
    }
  };

  if (!list) {
    return (
      <>
        {report && (
          <Panel title={`差異報告 ${report.no}（締め済み）`}>
            <div className="body" data-testid="inbound-report">
              予定 {report.counts.expected}台 ／ 入荷 {report.counts.received}台 ／ 未着 {report.counts.missing}台 ／ 予定外 {report.counts.unexpected}台{' '}
              <a href={inboundApi.reportUrl(report.id, 'pdf')} target="_blank" rel="noreferrer">
                入荷差異報告書（PDF）
              </a>{' '}
              <a href={inboundApi.reportUrl(report.id, 'csv')}>CSV</a>
            </div>
          </Panel>
        )}
        <Picker onStart={(l) => void start(l)} />
      </>
    );
  }

  const c = counts ?? list.counts;
  const pending = entries.filter((e) => e.state === 'waiting' || e.state === 'saving').length;
  return (
    <>
      <div className="scanbar" data-testid="inbound-session">
        <strong>
          {list.no} {list.name}
        </strong>
        <span>{list.cust}</span>
        <span className="spacer" style={{ flex: 1 }} />
        <button className="btn small" onClick={() => setList(null)}>
          予定を選び直す
        </button>
        <button className="btn small" onClick={() => void close()} data-testid="inbound-close">
          締めて差異報告
        </button>
      </div>
      <div className="scanbar">
        <label htmlFor="scan" style={{ fontWeight: 700 }}>
          スキャン
        </label>
        <ScanField placeholder="IMEIをスキャン（キー入力してEnterでも可）" />
        <button className="btn" disabled={!lastUnexpected} onClick={() => lastUnexpected && enqueue(lastUnexpected.imei, true)} data-testid="inbound-confirm">
          予定外を台帳に登録（Ctrl+Enter）
        </button>
      </div>
      <section className={`last-scan ${last ? LABEL[last.state].panel : ''}`} data-testid="last-scan" aria-live="polite" data-state={last?.state ?? ''}>
        <div className="count" data-testid="inbound-counts" style={{ display: 'flex', gap: 18, alignItems: 'flex-end' }}>
          <span>
            予定 <b data-testid="inbound-expected">{c.expected}</b>
          </span>
          <span>
            入荷 <b data-testid="inbound-received">{c.received}</b>
          </span>
          <span>
            残り <b data-testid="inbound-remaining">{c.missing}</b>
          </span>
          <small>
            予定外 <span data-testid="inbound-unexpected">{c.unexpected}</span>
            {pending ? `（処理中 ${pending}）` : ''}
          </small>
        </div>
        {last ? (
          <>
            <div className="imei mono" data-testid="last-imei">
              {last.imei || '（空）'}
            </div>
            <div className="result" data-testid="last-result">
              {LABEL[last.state].text}: {last.message}
            </div>
          </>
        ) : (
          <div className="result">IMEIをスキャンしてください。入荷予定と照合します。</div>
        )}
      </section>
      <Panel title={`スキャン結果（${entries.length}件）`}>
        {entries.length === 0 ? (
          <div className="state">まだスキャンはありません</div>
        ) : (
          <table className="t" data-testid="inbound-results">
            <tbody>
              {entries.map((e) => (
                <tr key={e.seq} data-state={e.state}>
                  <td className="num" style={{ width: 48 }}>
                    {e.seq}
                  </td>
                  <td className="mono" style={{ width: 160 }}>
                    {e.imei}
                  </td>
                  <td style={{ width: 160 }}>
                    <Chip c={LABEL[e.state].chip}>{LABEL[e.state].text}</Chip>
                  </td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
    </>
  );
}
