import { useEffect, useState } from 'react';
import { CAPACITY_KEYS, type CapacityConfig, type CapacityDay, type CapacityKey, type CapacitySummary, type LoadEntry } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Async, Chip, Panel, fmtTs, toast, toastError, todayJst, useLoad } from '../components/ui';
import { Kpis, optNum, optStr, s, type FormValues } from './parts';
import { dateRangeLabel, periodLabel } from '../lib/labels';

const CFG_LABEL: Record<CapacityKey, string> = {
  kittingDaily: '日次キッティング能力（台/日）',
  storageMax: '保管 上限（台）',
  storageUsed: '保管 使用中（台）',
  palletMax: 'パレット 上限',
  palletUsed: 'パレット 使用中',
  warehouseMax: '倉庫 上限',
  warehouseUsed: '倉庫 使用中',
  staffCount: '作業員数（名）',
  perStaff: '1人あたり（台/日）',
};
const pct = (v: unknown) => (typeof v === 'number' ? `${v}%` : '—');

const n = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('ja-JP') : '—');

function Summary({ summary }: { summary: CapacitySummary }) {
  const period = typeof summary.from === 'string' && typeof summary.to === 'string' ? dateRangeLabel(summary.from, summary.to) : '今後7日間';
  return (
    <>
      <div className="muted" data-testid="capacity-period" style={{ margin: '0 0 4px' }}>
        集計期間: {period}（負荷 = 入荷・作業予定 + 期限がこの期間の未完了案件の台数。期限が休業日の案件は前の稼働日に、期限を過ぎた案件は今日以降の最初の稼働日に計上。休業日の能力は0）
      </div>
      <Kpis
        testId="capacity-summary"
        items={[
          ['日次能力', `${n(summary.dailyCapacity)} 台`],
          ['今週の負荷 / 能力', `${s(summary.weekLoad)} / ${n(summary.weekCapacity)} 台`],
          ['週間稼働率', pct(summary.utilizationPct)],
          ['負荷の内訳', `案件 ${n(summary.weekJobUnits)} 台・予定 ${n(summary.weekPlanned)} 台`],
          ['ピーク日', summary.peakDate ? `${periodLabel(s(summary.peakDate))}（${pct(summary.peakPct)}）` : '—'],
          ['能力超過日', `${n(summary.overDays)} 日`],
          ['未完了の案件', `${n(summary.openJobs)} 件・${n(summary.openUnits)} 台（${typeof summary.backlogDays === 'number' ? `${summary.backlogDays}日分` : '—'}）`],
          ['ドック予約', `${n(summary.dockBookings)} 件・稼働 ${pct(summary.dockPct)}`],
          ['保管 / パレット / 倉庫', `${pct(summary.storagePct)} / ${pct(summary.palletPct)} / ${pct(summary.warehousePct)}`],
        ]}
      />
      {(Number(summary.undatedJobs) > 0 || Number(summary.overdueJobs) > 0 || Number(summary.unknownQtyJobs) > 0) && (
        <div className="muted" data-testid="capacity-notes" style={{ margin: '4px 0 8px' }}>
          {Number(summary.overdueJobs) > 0 && <>期限超過の案件 {n(summary.overdueJobs)} 件を今日の負荷に含めています。 </>}
          {Number(summary.undatedJobs) > 0 && <>期限を日付として読めない案件 {n(summary.undatedJobs)} 件（{n(summary.undatedUnits)} 台）は日付に割り当てられていません（下の「期限の確認が必要な案件」から直してください）。 </>}
          {Number(summary.unknownQtyJobs) > 0 && <>台数の分からない案件 {n(summary.unknownQtyJobs)} 件は 0 台として計算しています（端末を案件に追加すると台数になります）。</>}
        </div>
      )}
    </>
  );
}

type DayCard = { id: string; t: string; c: string; units: number; due: string; date: string; overdue: boolean; guessed: boolean };
type DayEntry = { id: string; cust: string; qty: number; kind: string };

/** The cards and planned entries behind a day's load. */
function Breakdown({ day }: { day: CapacityDay }) {
  const cards = (day.cards ?? []) as DayCard[];
  const entries = (day.entries ?? []) as DayEntry[];
  if (cards.length === 0 && entries.length === 0) return <span className="muted">—</span>;
  return (
    <ul style={{ margin: 0, paddingLeft: 14, fontSize: 12 }} data-testid={`capacity-day-${day.date}`}>
      {cards.map((c) => (
        <li key={c.id}>
          {c.c} {c.t}（{c.units}台・期限 {c.due || '—'}）{c.overdue && <Chip c="c-red">期限超過</Chip>}
          {c.guessed && <Chip c="c-orange">年を推定</Chip>}
        </li>
      ))}
      {entries.map((e) => (
        <li key={e.id}>
          予定 {e.id} {e.cust} {e.kind}（{e.qty}台）
        </li>
      ))}
    </ul>
  );
}

/** The first day of the week (Monday) of a YYYY-MM-DD date. */
function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}
function addDaysTo(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function WeekPicker({ from, onChange }: { from: string; onChange: (d: string) => void }) {
  return (
    <div className="row" style={{ gap: 6, margin: '0 0 8px' }} data-testid="capacity-week-picker">
      <button className="btn small" onClick={() => onChange(addDaysTo(mondayOf(from), -7))}>
        ← 前の週
      </button>
      <button className="btn small" onClick={() => onChange(todayJst())}>
        今日から
      </button>
      <button className="btn small" onClick={() => onChange(addDaysTo(mondayOf(from), 7))}>
        次の週 →
      </button>
      <label className="muted" htmlFor="capacity-from">
        表示開始日
      </label>
      <input id="capacity-from" className="in" type="date" value={from} onChange={(e) => e.target.value && onChange(e.target.value)} />
    </div>
  );
}

type Flagged = { id: string; t: string; c: string; units: number; due: string; date: string | null; reason: string };

function FlaggedCards({ flagged }: { flagged: Flagged[] }) {
  if (flagged.length === 0) return null;
  return (
    <Panel title={`期限の確認が必要な案件（${flagged.length}件）`}>
      <table className="t" data-testid="capacity-flagged">
        <thead>
          <tr>
            <th>顧客</th>
            <th>案件</th>
            <th className="num">台数</th>
            <th>期限（入力のまま）</th>
            <th>読み取り</th>
          </tr>
        </thead>
        <tbody>
          {flagged.map((f) => (
            <tr key={f.id}>
              <td>{f.c}</td>
              <td>
                <a href="#/jobs">{f.t || f.id}</a>
              </td>
              <td className="num">{f.units}</td>
              <td>{f.due || '（未入力）'}</td>
              <td>
                {f.reason}
                {f.date ? `: ${periodLabel(f.date)}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];
type Calendar = { workdays: number[]; holidays: boolean; closedDates: string[] };

/** The company calendar capacity counts with: working weekdays, public holidays, extra closed dates. */
function CalendarForm({ calendar, onSaved }: { calendar: Calendar; onSaved: () => void }) {
  const [days, setDays] = useState<number[]>(calendar.workdays);
  const [holidays, setHolidays] = useState(calendar.holidays);
  const [closed, setClosed] = useState(calendar.closedDates.join('\n'));
  useEffect(() => {
    setDays(calendar.workdays);
    setHolidays(calendar.holidays);
    setClosed(calendar.closedDates.join('\n'));
  }, [calendar]);
  const save = async () => {
    const dates = closed.split(/[\s,、]+/).filter(Boolean);
    const bad = dates.find((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d));
    if (bad) return toast(`休業日「${bad}」は YYYY-MM-DD で入力してください`, true);
    try {
      await api.raw.put('/api/settings/company', { workdays: days, holidays, closedDates: dates });
      toast('稼働カレンダーを保存しました');
      onSaved();
    } catch (e) {
      toastError(e, '保存できませんでした');
    }
  };
  return (
    <Panel title="稼働カレンダー" actions={<button className="btn primary" onClick={() => void save()} data-testid="calendar-save">保存</button>}>
      <div className="body form">
        <span>稼働曜日</span>
        <div className="row">
          {WEEKDAYS.map((w, i) => (
            <label key={w}>
              <input type="checkbox" checked={days.includes(i)} onChange={(e) => setDays((d) => (e.target.checked ? [...d, i].sort() : d.filter((x) => x !== i)))} /> {w}
            </label>
          ))}
        </div>
        <label htmlFor="cal-holidays">祝日</label>
        <label>
          <input id="cal-holidays" type="checkbox" checked={holidays} onChange={(e) => setHolidays(e.target.checked)} /> 国民の祝日・振替休日は休業
        </label>
        <label htmlFor="cal-closed">休業日（年末年始など）</label>
        <textarea id="cal-closed" className="in" rows={3} placeholder="2026-12-29&#10;2026-12-30" value={closed} onChange={(e) => setClosed(e.target.value)} />
      </div>
    </Panel>
  );
}

function Week({ week }: { week: CapacityDay[] }) {
  return (
    <Panel title="7日間の負荷">
      <table className="t" data-testid="capacity-week">
        <thead>
          <tr>
            <th style={{ width: 130 }}>日付</th>
            <th className="num" style={{ width: 70 }}>案件</th>
            <th className="num" style={{ width: 70 }}>予定</th>
            <th className="num" style={{ width: 80 }}>負荷</th>
            <th className="num" style={{ width: 70 }}>能力</th>
            <th>稼働率</th>
            <th style={{ width: 110 }}>ドック</th>
            <th>内訳</th>
          </tr>
        </thead>
        <tbody>
          {week.map((d) => (
            <tr key={d.date}>
              <td>
                {periodLabel(d.date).replace(/^\d{4}年/, '')}（{d.dow}）
              </td>
              <td className="num" title={`未完了の案件 ${n(d.jobs)} 件`}>{n(d.jobUnits)} 台</td>
              <td className="num">{n(d.planned)} 台</td>
              <td className="num">{d.load} 台</td>
              <td className="num">{d.closed ? <Chip c="c-gray">{String(d.closedReason ?? '休業')}</Chip> : `${d.capacity} 台`}</td>
              <td>
                <div className="row" style={{ flexWrap: 'nowrap' }}>
                  <div className="progress" style={{ flex: 1 }}>
                    <div style={{ width: `${Math.min(100, d.pct ?? 0)}%`, background: d.over ? 'var(--danger)' : undefined }} />
                  </div>
                  <span style={{ width: 56, textAlign: 'right' }}>{pct(d.pct)}</span>
                  {d.over && <Chip c="c-red">超過</Chip>}
                </div>
              </td>
              <td>{Number(d.dockBookings) > 0 ? `${n(d.dockBookings)} 件（${pct(d.dockPct)}）` : '—'}</td>
              <td>
                <Breakdown day={d} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

function ConfigForm({ config, onSaved }: { config: CapacityConfig; onSaved: () => void }) {
  const [f, setF] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => setF(Object.fromEntries(CAPACITY_KEYS.map((k) => [k, s(config[k])]))), [config]);
  const save = async () => {
    const body: Partial<Record<CapacityKey, number>> = {};
    for (const k of CAPACITY_KEYS) {
      const n = optNum(f[k]);
      if (n === undefined || n < 0) return toast(`${CFG_LABEL[k]}は0以上の数値で入力してください`, true);
      body[k] = n;
    }
    setBusy(true);
    try {
      await api.saveCapacityConfig(body);
      toast('キャパシティ設定を保存しました');
      onSaved();
    } catch (e) {
      toastError(e, '保存できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel
      title={<>能力・保管設定 <span className="muted" style={{ fontWeight: 400 }}>更新 {fmtTs(config.updated)}</span></>}
      actions={
        <button className="btn primary" disabled={busy} onClick={() => void save()} data-testid="capacity-save">
          {busy ? '保存中…' : '設定を保存'}
        </button>
      }
    >
      <div className="body" style={{ display: 'grid', gridTemplateColumns: 'repeat(2, max-content 110px)', gap: '6px 10px', alignItems: 'center' }}>
        {CAPACITY_KEYS.map((k) => (
          <label key={k} style={{ display: 'contents' }}>
            <span className="muted" style={{ fontSize: 12 }}>{CFG_LABEL[k]}</span>
            <input className="in num" type="number" min={0} value={f[k] ?? ''} onChange={(e) => setF((p) => ({ ...p, [k]: e.target.value }))} aria-label={CFG_LABEL[k]} />
          </label>
        ))}
      </div>
    </Panel>
  );
}

const loadInput = (v: FormValues) => ({ date: optStr(v.date), cust: optStr(v.cust), qty: optNum(v.qty), kind: optStr(v.kind), note: optStr(v.note) });

export function CapacityScreen() {
  const [from, setFrom] = useState(todayJst());
  const view = useLoad(() => api.capacity(from), [from]);
  return (
    <>
      <WeekPicker from={from} onChange={setFrom} />
      <Async state={view} what="キャパシティ">
        {(d) => (
          <>
            <Summary summary={d.summary} />
            <Week week={d.week} />
            <FlaggedCards flagged={(d.flagged ?? []) as Flagged[]} />
            <div className="grid2">
              <ConfigForm config={d.config} onSaved={view.reload} />
              {d.calendar && <CalendarForm calendar={d.calendar as Calendar} onSaved={view.reload} />}
            </div>
          </>
        )}
      </Async>
      <CrudTable<LoadEntry>
        what="負荷予定"
        title="入荷・作業予定（負荷）"
        testId="capacity-load"
        load={async () => (await api.capacity()).load}
        idOf={(l) => l.id}
        onChanged={view.reload}
        columns={[
          { key: 'id', label: '番号', width: 100, className: 'mono' },
          { key: 'date', label: '日付', width: 110 },
          { key: 'cust', label: '顧客' },
          { key: 'qty', label: '台数', width: 80, className: 'num' },
          { key: 'kind', label: '種別', width: 110 },
          { key: 'note', label: 'メモ' },
        ]}
        fields={[
          { key: 'date', label: '日付', type: 'date', required: true },
          { key: 'cust', label: '顧客', max: 120 },
          { key: 'qty', label: '台数', type: 'number', required: true },
          { key: 'kind', label: '種別', max: 40, suggest: ['キッティング', '入荷', '出荷', '回収', 'データ消去'] },
          { key: 'note', label: 'メモ', type: 'textarea', max: 300 },
        ]}
        defaults={{ date: todayJst(), kind: 'キッティング' }}
        create={async (v) => (await api.createLoad(loadInput(v))).entry}
        update={async (id, v) => (await api.updateLoad(id, loadInput(v))).entry}
        remove={(id) => api.deleteLoad(id)}
      />
    </>
  );
}
