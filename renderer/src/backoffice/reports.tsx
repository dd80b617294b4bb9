import { useState } from 'react';
import type { Report } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Async, Chip, Panel, fmtTs, toast, todayJst, useLoad, yen } from '../components/ui';
import { ErrorBox, Kpis, s } from './parts';

const FIGURES: [key: string, label: string][] = [
  ['dev', '端末数'],
  ['store', '保管中'],
  ['kit', 'キッティング台数'],
  ['inb', '入荷'],
  ['out', '出荷'],
  ['tk', 'チケット'],
  ['swap', '故障・交換'],
  ['lost', '紛失'],
  ['sla', 'SLA遵守'],
  ['slaPct', 'SLA遵守率'],
  ['wipe', 'データ消去台数'],
  ['wipeCerts', '消去証明書'],
  ['revenue', '売上'],
];

function figure(r: Report, k: string): string {
  const v = r.figures?.[k];
  if (v === null || v === undefined) return '—';
  if (k === 'revenue') return yen(Number(v));
  if (k === 'slaPct') return `${s(v)}%`;
  return s(v);
}

function ReportView({ report, saved }: { report: Report; saved: boolean }) {
  return (
    <Panel
      title={
        <>
          {report.monthLabel} {report.custLabel} <span className="mono muted">{report.id}</span> {saved ? <Chip c="c-green">保存済</Chip> : <Chip c="c-orange">プレビュー（未保存）</Chip>}
          {!report.hasData && <Chip c="c-gray">対象月のデータなし</Chip>}
        </>
      }
    >
      <div className="body" data-testid="report-view">
        <Kpis items={FIGURES.map(([k, l]) => [`${l}${report.scope?.[k] === 'current' ? '（現在）' : ''}`, figure(report, k)])} />
        <div className="muted" style={{ marginTop: 8, fontSize: 12 }}>
          基準日 {s(report.asOf)}・作成 {fmtTs(report.generatedAt)}
          {report.undated && Object.values(report.undated).some((n) => n > 0) && `・日付不明で集計外: 案件 ${report.undated.jobs ?? 0} / チケット ${report.undated.tickets ?? 0} / 入出荷 ${report.undated.shipments ?? 0}`}
        </div>
      </div>
    </Panel>
  );
}

function OpenReport({ id }: { id: string }) {
  const state = useLoad(() => api.report(id), [id]);
  return <Async state={state} what="レポート">{(d) => <ReportView report={d.report} saved />}</Async>;
}

const thisYymm = () => todayJst().slice(2, 4) + todayJst().slice(5, 7);

export function ReportsScreen() {
  const customers = useLoad(() => api.customers());
  const [month, setMonth] = useState(thisYymm());
  const [cust, setCust] = useState('');
  const [result, setResult] = useState<{ report: Report; saved: boolean } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<'preview' | 'save' | null>(null);
  const [savedN, setSavedN] = useState(0);
  const run = async (save: boolean) => {
    if (!/^\d{2}(0[1-9]|1[0-2])$/.test(month)) return setError(new Error('対象月は YYMM 形式（例: 2611）で入力してください'));
    setBusy(save ? 'save' : 'preview');
    setError(null);
    try {
      const q = { month, cust: cust || undefined };
      const { report } = save ? await api.saveReport(q) : await api.previewReport(q);
      setResult({ report, saved: save });
      if (save) {
        setSavedN((n) => n + 1);
        toast(`レポート ${report.id} を保存しました`);
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <Panel
        title="月次レポートの作成"
        actions={
          <>
            <button className="btn" disabled={busy !== null} onClick={() => void run(false)} data-testid="report-preview">
              {busy === 'preview' ? '集計中…' : 'プレビュー'}
            </button>
            <button className="btn primary" disabled={busy !== null} onClick={() => void run(true)} data-testid="report-save">
              {busy === 'save' ? '保存中…' : '作成して保存'}
            </button>
          </>
        }
      >
        <div className="body row">
          <label className="row">
            対象月（YYMM）
            <input className="in mono" style={{ width: 80 }} maxLength={4} value={month} onChange={(e) => setMonth(e.target.value.trim())} aria-label="対象月" />
          </label>
          <label className="row">
            顧客
            <select className="in" value={cust} onChange={(e) => setCust(e.target.value)} aria-label="レポートの顧客">
              <option value="">全顧客</option>
              {(customers.data?.customers ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <span className="muted" style={{ fontSize: 12 }}>同じ月・顧客のレポートは上書き保存されます</span>
        </div>
      </Panel>
      {error !== null && <ErrorBox title="レポートを作成できませんでした" error={error} />}
      {result && <ReportView report={result.report} saved={result.saved} />}
      <CrudTable<Report>
        what="保存済みレポート"
        title="保存済みレポート"
        testId="reports-saved"
        reloadKey={savedN}
        load={async () => (await api.reports()).reports}
        idOf={(r) => r.id}
        columns={[
          { key: 'id', label: 'レポート番号', className: 'mono' },
          { key: 'monthLabel', label: '対象月', width: 100 },
          { key: 'custLabel', label: '顧客' },
          { key: 'generatedAt', label: '作成', width: 100, render: (r) => fmtTs(r.generatedAt) },
        ]}
        detail={(r) => <OpenReport key={r.id} id={r.id} />}
      />
    </>
  );
}
