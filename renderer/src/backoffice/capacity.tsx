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
        集計期間: {period}（負荷 = 入荷・作業予定 + 期限がこの期間の未完了案件の台数。期限を過ぎた案件は今日に計上）
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
          {Number(summary.undatedJobs) > 0 && <>期限が日付でない案件 {n(summary.undatedJobs)} 件（{n(summary.undatedUnits)} 台）は週の負荷に入っていません。案件ボードで期限の日付を設定してください。 </>}
          {Number(summary.unknownQtyJobs) > 0 && <>台数の分からない案件 {n(summary.unknownQtyJobs)} 件は 0 台として計算しています（端末を案件に追加すると台数になります）。</>}
        </div>
      )}
    </>
  );
}

function Week({ week }: { week: CapacityDay[] }) {
  return (
    <Panel title="今後7日間の負荷">
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
              <td className="num">{d.capacity} 台</td>
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
  const view = useLoad(() => api.capacity());
  return (
    <>
      <Async state={view} what="キャパシティ">
        {(d) => (
          <>
            <Summary summary={d.summary} />
            <div className="grid2">
              <Week week={d.week} />
              <ConfigForm config={d.config} onSaved={view.reload} />
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
