import { useEffect, useState } from 'react';
import { SHIFT_VALUES, type Grid, type ShiftDraft } from '../../../shared/api/schemas';
import { api } from '../api';
import { Async, Chip, ErrorState, Loading, Panel, confirmAction, fmtTs, toast, toastError, useLoad } from '../components/ui';

export const SHIFT_LABEL: Record<string, [string, string]> = { day: ['日勤', 'c-blue'], late: ['遅番', 'c-cyan'], night: ['夜勤', 'c-purple'], disp: ['派遣', 'c-orange'], off: ['休', 'c-gray'] };
const DAYS = ['月', '火', '水', '木', '金', '土', '日'];

export function ShiftsScreen() {
  const shifts = useLoad(() => api.shifts());
  const staff = useLoad(() => api.staff());
  const history = useLoad(() => api.shiftHistory());
  const [grid, setGrid] = useState<Grid>({});
  const [draft, setDraft] = useState<ShiftDraft | null>(null);
  useEffect(() => {
    if (shifts.data) {
      setGrid(shifts.data.grid);
      setDraft(shifts.data.draft ?? null);
    }
  }, [shifts.data]);
  if ((shifts.error && !shifts.data) || (staff.error && !staff.data)) return <ErrorState error={shifts.error ?? staff.error} what="シフト" onRetry={() => { shifts.reload(); staff.reload(); }} />;
  if (!shifts.data || !staff.data) return <Loading what="シフト" />;
  const stage = async () => {
    try {
      const { draft: d } = await api.stageShiftDraft(grid);
      setDraft(d);
      toast(`下書きを作成しました（変更 ${d.diff?.length ?? 0}件）`);
    } catch (e) {
      toastError(e, '下書きを作成できませんでした');
    }
  };
  const apply = async () => {
    if (!(await confirmAction('下書きのシフトを適用します。現在のシフトは履歴に保存されます。', '適用する'))) return;
    try {
      const r = await api.applyShiftDraft();
      setGrid(r.grid);
      setDraft(null);
      history.reload();
      toast('シフトを適用しました');
    } catch (e) {
      toastError(e, '適用できませんでした');
    }
  };
  const discard = async () => {
    try {
      await api.discardShiftDraft();
      setDraft(null);
      setGrid(shifts.data?.grid ?? {});
      toast('下書きを破棄しました');
    } catch (e) {
      toastError(e, '破棄できませんでした');
    }
  };
  const restore = async (hid: string, ts?: number) => {
    if (!(await confirmAction(`${fmtTs(ts)} のシフトに戻します。現在のシフトは履歴に保存されます。`, '復元する'))) return;
    try {
      const r = await api.restoreShifts(hid);
      setGrid(r.grid);
      setDraft(null);
      history.reload();
      toast('シフトを復元しました');
    } catch (e) {
      toastError(e, '復元できませんでした');
    }
  };
  const changed = new Set((draft?.diff ?? []).map((d) => `${d.staffId}:${d.day}`));
  return (
    <>
      <Panel
        title={<>週間シフト {draft && <Chip c="c-orange">未確定の下書きあり</Chip>}</>}
        actions={
          <>
            <button className="btn" onClick={() => void stage()}>
              下書きとして確認
            </button>
            <button className="btn primary" disabled={!draft} onClick={() => void apply()}>
              適用
            </button>
            <button className="btn" disabled={!draft} onClick={() => void discard()}>
              破棄
            </button>
          </>
        }
      >
        <table className="t">
          <thead>
            <tr>
              <th>スタッフ</th>
              {DAYS.map((d) => (
                <th key={d}>{d}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {staff.data.staff.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.name} <span className="muted">{s.type === 'agency' ? '派遣' : '社員'}</span>
                </td>
                {DAYS.map((_, i) => (
                  <td key={i} style={changed.has(`${s.id}:${i}`) ? { background: '#fff8c5' } : undefined}>
                    <select className="in" value={grid[s.id]?.[i] ?? 'off'} aria-label={`${s.name} ${DAYS[i]}`} onChange={(e) => setGrid((g) => ({ ...g, [s.id]: Array.from({ length: 7 }, (_, j) => (j === i ? e.target.value : (g[s.id]?.[j] ?? 'off'))) }))}>
                      {SHIFT_VALUES.map((v) => (
                        <option key={v} value={v}>
                          {SHIFT_LABEL[v]?.[0]}
                        </option>
                      ))}
                    </select>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      <Panel title="履歴（最新20件）">
        <Async state={history} what="シフト履歴">
          {(d) =>
            d.history.length === 0 ? (
              <div className="state">履歴はありません</div>
            ) : (
              <table className="t">
                <tbody>
                  {d.history.map((h) => (
                    <tr key={h.id}>
                      <td style={{ width: 140 }}>{fmtTs(h.ts)}</td>
                      <td>{h.reason}</td>
                      <td style={{ textAlign: 'right' }}>
                        <button className="btn small" onClick={() => void restore(h.id, h.ts)}>
                          この状態に戻す
                        </button>
                      </td>
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
