import { api } from '../api';
import { Chip, ErrorState, Loading, Panel, toast, toastError, todayJst, useLoad } from '../components/ui';
import { periodLabel } from '../lib/labels';

export function TimeclockScreen() {
  const shifts = useLoad(() => api.shifts());
  const staff = useLoad(() => api.staff());
  if ((shifts.error && !shifts.data) || (staff.error && !staff.data)) return <ErrorState error={shifts.error ?? staff.error} what="勤怠" onRetry={() => { shifts.reload(); staff.reload(); }} />;
  if (!shifts.data || !staff.data) return <Loading what="勤怠" />;
  const clock = shifts.data.clock ?? {};
  const punch = async (id: string, dir: 'in' | 'out', name?: string) => {
    try {
      const { row } = await api.punch(id, dir);
      shifts.setData((d) => d && { ...d, clock: { ...(d.clock ?? {}), [id]: row } });
      toast(`${name ?? id} ${dir === 'in' ? '出勤' : '退勤'} ${dir === 'in' ? row.in : row.out}`);
    } catch (e) {
      toastError(e, '打刻できませんでした');
    }
  };
  return (
    <Panel title={`本日（${periodLabel(todayJst())}）の打刻`}>
      <table className="t">
        <thead>
          <tr>
            <th>スタッフ</th>
            <th>出勤</th>
            <th>退勤</th>
            <th>状態</th>
            <th className="num">処理台数</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {staff.data.staff.map((s) => {
            const r = clock[s.id];
            return (
              <tr key={s.id}>
                <td>{s.name}</td>
                <td className="mono">{r?.in ?? '—'}</td>
                <td className="mono">{r?.out ?? '—'}</td>
                <td>{r?.status ? <Chip c={r.status === 'in' ? 'c-green' : 'c-gray'}>{r.status === 'in' ? '出勤中' : r.status === 'out' ? '退勤済' : r.status}</Chip> : <span className="muted">未出勤</span>}</td>
                <td className="num">{r?.units ?? 0}</td>
                <td style={{ textAlign: 'right' }}>
                  <button className="btn small primary" disabled={r?.status === 'in'} onClick={() => void punch(s.id, 'in', s.name)}>
                    出勤
                  </button>{' '}
                  <button className="btn small" disabled={r?.status !== 'in'} onClick={() => void punch(s.id, 'out', s.name)}>
                    退勤
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}
