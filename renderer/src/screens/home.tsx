import type { MetricsOverview } from '../../../shared/api/schemas';
import { useState } from 'react';
import { api } from '../api';
import { periodLabel } from '../lib/labels';
import { navigate } from '../lib/router';
import { useScanHandler } from '../lib/scan-service';
import { playScanSound } from '../lib/sound';
import { ScanBar, scanMsg, type ScanMsg } from './ledger-scan';
import { Async, Chip, Empty, ErrorState, Loading, Panel, toast, toastError, todayJst, useLoad } from '../components/ui';

const FIGURES: { key: keyof MetricsOverview; label: string }[] = [
  { key: 'kittingMonth', label: '今月のキッティング' },
  { key: 'revenueForecast', label: '売上見込み' },
  { key: 'mrr', label: 'MRR（月次継続収益）' },
  { key: 'pipeline', label: 'パイプライン' },
  { key: 'grossMargin', label: '粗利率' },
  { key: 'recurringCustomers', label: '継続契約顧客' },
];

function Figures() {
  const m = useLoad(() => api.metricsOverview());
  if (m.error && !m.data) return <ErrorState error={m.error} what="主要指標" onRetry={m.reload} />;
  if (!m.data) return <Loading what="主要指標" />;
  const data = m.data;
  const month = typeof data.month === 'string' && data.month ? periodLabel(data.month) : '今月';
  return (
    <>
    <div className="muted" data-testid="figures-period" style={{ margin: '0 0 4px' }}>
      集計期間: {month}（キッティング・売上見込み・MRR・継続契約顧客は{month}分、パイプラインは現時点）
    </div>
    <div className="kpis">
      {FIGURES.map(({ key, label }) => {
        const f = data[key] as { display?: string | number; unit?: string; computed?: boolean; reason?: string } | undefined;
        return (
          <div className="kpi" key={key} title={f?.computed === false ? (f.reason ?? '算出できません') : undefined}>
            <div className="label">{key === 'kittingMonth' ? `${month}のキッティング` : label}</div>
            <div className="value">
              {f?.display ?? '—'}
              {f?.unit && <small>{f.unit}</small>}
            </div>
          </div>
        );
      })}
    </div>
    </>
  );
}

function Alerts() {
  const state = useLoad(() => api.alerts());
  const ack = async (id: string, toastText?: string) => {
    try {
      const { alert } = await api.ackAlert(id);
      state.setData((d) => d && { ...d, alerts: d.alerts.map((a) => (a.id === id ? alert : a)), lateCount: (d.lateCount ?? 1) - (alert.late ? 1 : 0) });
      toast(toastText ?? 'アラートを確認済みにしました');
    } catch (e) {
      toastError(e, '確認できませんでした');
    }
  };
  return (
    <Panel title={<>アラート {state.data && state.data.lateCount ? <Chip c="c-red">未対応 {state.data.lateCount}</Chip> : null}</>}>
      <Async state={state} what="アラート">
        {(d) =>
          d.alerts.length === 0 ? (
            <Empty>アラートはありません</Empty>
          ) : (
            <table className="t">
              <tbody>
                {d.alerts.map((a) => (
                  <tr key={a.id} style={a.ack ? { opacity: 0.55 } : undefined}>
                    <td style={{ width: 64 }}>
                      <Chip c={a.chip}>{a.chipLabel ?? a.label}</Chip>
                    </td>
                    <td>
                      <div style={{ fontWeight: 600 }}>{a.what}</div>
                      <div className="muted">{a.detail}</div>
                    </td>
                    <td style={{ width: 150, textAlign: 'right' }}>
                      {a.ack ? (
                        <span className="muted">確認済</span>
                      ) : (
                        <button className={`btn small${a.action?.danger ? ' danger' : ''}`} onClick={() => void ack(a.id, a.action?.toast)}>
                          {a.action?.label ?? '確認'}
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
  );
}

function Ops() {
  const state = useLoad(() => api.opsToday());
  return (
    <Panel title={`本日の作業予定（${periodLabel(todayJst()).replace(/^\d{4}年/, '')}）`}>
      <Async state={state} what="本日の作業">
        {(d) =>
          d.ops.length === 0 ? (
            <Empty>本日の予定はありません</Empty>
          ) : (
            <table className="t">
              <tbody>
                {d.ops.map((o) => (
                  <tr key={o.id}>
                    <td className="mono" style={{ width: 52 }}>
                      {o.time}
                    </td>
                    <td style={{ width: 96 }}>
                      <Chip c={o.chip}>{o.chipLabel}</Chip>
                    </td>
                    <td>
                      <div style={{ fontWeight: 600 }}>{o.title}</div>
                      <div className="muted">{o.detail}</div>
                    </td>
                    <td style={{ width: 80 }}>
                      <Chip c={o.statusColor}>{o.status}</Chip>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Async>
    </Panel>
  );
}

export function HomeScreen() {
  const [msg, setMsg] = useState<ScanMsg>(null);
  useScanHandler((scan) => {
    if (scan.kind !== 'imei') {
      playScanSound('error');
      return setMsg(scanMsg('bad', `読み取り値「${scan.value}」: ${scan.message}`));
    }
    navigate(`/ledger?imei=${scan.value}`);
  });
  return (
    <>
      <ScanBar message={msg} setMessage={setMsg} hint="IMEIをスキャンすると端末台帳で開きます（未登録なら登録へ）。連続登録は「入荷セッション」へ。" />
      <Figures />
      <div className="grid2">
        <Ops />
        <Alerts />
      </div>
    </>
  );
}
