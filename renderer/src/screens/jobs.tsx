import { useRef, useState } from 'react';
import { JOB_STAGE_COUNT, type Job, type JobInput } from '../../../shared/api/schemas';
import { api, describeError } from '../api';
import { Async, Chip, Modal, confirmAction, toast, toastError, todayJst, useLoad } from '../components/ui';
import { useScanHandler } from '../lib/scan-service';
import { playScanSound } from '../lib/sound';
import { ScanBar, scanMsg, type ScanMsg } from './ledger-scan';
import { JOB_STAGE_NAMES } from '../../../shared/jobs';

export const STAGES: readonly string[] = JOB_STAGE_NAMES;
const CHIPS = ['c-blue', 'c-cyan', 'c-green', 'c-orange', 'c-red', 'c-gray'];
export const CHIP_NAMES: Record<string, string> = { 'c-blue': '青', 'c-cyan': '水色', 'c-green': '緑', 'c-orange': 'オレンジ', 'c-red': '赤', 'c-gray': 'グレー' };
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A due label for the card: real dates as 2026/12/10 (with 期限切れ when past), older free-text labels as written. */
export function dueLabel(due: string | undefined): { text: string; late: boolean } | null {
  if (!due) return null;
  if (!ISO_DATE.test(due)) return { text: `期限 ${due}（日付未設定）`, late: false };
  return { text: `期限 ${due.replace(/-/g, '/')}`, late: due < todayJst() };
}

/** The card editor's form: every field of the contract's JobInput, filled in. */
type JobForm = { [K in keyof JobInput]-?: K extends 's' ? number : string };

function JobModal({ job, onClose, onSaved }: { job: Job | null; onClose: () => void; onSaved: (j: Job) => void }) {
  const [f, setF] = useState<JobForm>({ c: job?.c ?? '', t: job?.t ?? '', s: job?.s ?? 0, due: job?.due ?? '', ch: job?.ch ?? 'c-blue', tag: job?.tag ?? '' });
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!f.t.trim()) return toast('件名を入力してください', true);
    setBusy(true);
    try {
      const r = job ? await api.updateJob(job.id, f) : await api.createJob(f);
      onSaved(r.job);
      toast(job ? '案件を更新しました' : '案件を作成しました');
    } catch (e) {
      toastError(e, '保存できませんでした');
      setBusy(false);
    }
  };
  const set = (k: keyof JobForm) => (e: { target: { value: string } }) => setF((p) => ({ ...p, [k]: k === 's' ? Number(e.target.value) : e.target.value }));
  return (
    <Modal
      title={job ? '案件を編集' : '新規案件'}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            キャンセル
          </button>
          <button className="btn primary" onClick={() => void save()} disabled={busy} data-testid="job-save">
            保存
          </button>
        </>
      }
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label htmlFor="jb-t">件名</label>
        <input id="jb-t" className="in" autoFocus value={f.t} maxLength={300} onChange={set('t')} />
        <label htmlFor="jb-c">顧客</label>
        <input id="jb-c" className="in" value={f.c} maxLength={120} onChange={set('c')} />
        <label htmlFor="jb-s">工程</label>
        <select id="jb-s" className="in" value={f.s} onChange={set('s')}>
          {STAGES.map((s, i) => (
            <option key={s} value={i}>
              {s}
            </option>
          ))}
        </select>
        <label htmlFor="jb-due">期限</label>
        <div>
          <input id="jb-due" className="in" type="date" value={ISO_DATE.test(f.due) ? f.due : ''} onChange={set('due')} />
          {f.due && !ISO_DATE.test(f.due) && <div className="muted">以前の表記「{f.due}」: 日付を選び直してください</div>}
        </div>
        <label htmlFor="jb-tag">タグ</label>
        <input id="jb-tag" className="in" value={f.tag} maxLength={40} onChange={set('tag')} />
        <label>色</label>
        <div className="row">
          {CHIPS.map((c) => (
            <label key={c} style={{ display: 'inline-flex', gap: 3, alignItems: 'center' }}>
              <input type="radio" name="ch" checked={f.ch === c} onChange={() => setF((p) => ({ ...p, ch: c }))} />
              <Chip c={c}>{CHIP_NAMES[c] ?? c}</Chip>
            </label>
          ))}
        </div>
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

export function JobsScreen() {
  const state = useLoad(() => api.jobs());
  const [edit, setEdit] = useState<Job | 'new' | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const [msg, setMsg] = useState<ScanMsg>(null);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const activeRef = useRef(active);
  activeRef.current = active;
  // A scan adds the device to the selected card (scans queue: none is lost while one is saving).
  useScanHandler((scan) => {
    if (scan.kind !== 'imei') {
      playScanSound('error');
      return setMsg(scanMsg('bad', `読み取り値「${scan.value}」: ${scan.message}`));
    }
    const jobId = activeRef.current;
    const job = state.data?.jobs.find((j) => j.id === jobId);
    if (!jobId || !job) {
      playScanSound('error');
      return setMsg(scanMsg('bad', `${scan.value}: 先に案件カードを選んでください（Tab / クリック）`));
    }
    chain.current = chain.current.then(async () => {
      try {
        if (job.devices?.includes(scan.value)) {
          playScanSound('duplicate');
          return setMsg(scanMsg('info', `${scan.value} はすでにこの案件にあります`));
        }
        const r = await api.jobDevices(jobId, { add: [scan.value] });
        upsert(r.job);
        playScanSound('ok');
        setMsg(scanMsg('good', `${scan.value} を「${r.job.t ?? ''}」に追加しました（${r.job.devices?.length ?? 0}台）`));
      } catch (e) {
        playScanSound('error');
        setMsg(scanMsg('bad', `${scan.value}: ${describeError(e)}`));
      }
    });
  });

  const upsert = (j: Job) => state.setData((d) => d && { ...d, jobs: d.jobs.some((x) => x.id === j.id) ? d.jobs.map((x) => (x.id === j.id ? j : x)) : [...d.jobs, j] });
  // The card that keeps focus after it moves column (React mounts it anew there; its ref focuses it in the same commit).
  const focusAfterMove = useRef<string | null>(null);
  // Per card, the latest move: an older answer arriving late must not pull the card back a column.
  const moveSeq = useRef(new Map<string, number>());
  const move = async (job: Job, s: number) => {
    if (s < 0 || s >= JOB_STAGE_COUNT || s === job.s) return;
    const seq = (moveSeq.current.get(job.id) ?? 0) + 1;
    moveSeq.current.set(job.id, seq);
    focusAfterMove.current = job.id;
    upsert({ ...job, s });
    try {
      const saved = (await api.updateJob(job.id, { s })).job;
      if (moveSeq.current.get(job.id) === seq) upsert(saved);
    } catch (e) {
      if (moveSeq.current.get(job.id) === seq) upsert(job);
      toastError(e, '工程を移動できませんでした');
    }
  };
  const remove = async (job: Job) => {
    if (!(await confirmAction(`案件「${job.t ?? job.id}」を削除します。よろしいですか？`))) return;
    try {
      await api.deleteJob(job.id);
      state.setData((d) => d && { ...d, jobs: d.jobs.filter((x) => x.id !== job.id) });
      toast('案件を削除しました');
    } catch (e) {
      toastError(e, '削除できませんでした');
    }
  };

  return (
    <>
      <ScanBar message={msg} setMessage={setMsg} autoFocus={false} hint="案件カードを選んでIMEIをスキャンすると、その端末が案件に入り、カードと一緒に工程を移動します。" />
      <div className="row">
        <button className="btn primary" onClick={() => setEdit('new')}>
          ＋ 新規案件
        </button>
        <span className="muted">カードはドラッグ、またはフォーカスして ← → キーで工程を移動。Enterで編集、Deleteで削除。</span>
      </div>
      <Async state={state} what="案件ボード">
        {(d) => (
          <div className="board" data-testid="board">
            {STAGES.map((name, s) => {
              const cards = d.jobs.filter((j) => j.s === s);
              return (
                <div
                  key={name}
                  className={`col${over === s ? ' over' : ''}`}
                  data-stage={s}
                  onDragOver={(e) => {
                    e.preventDefault();
                    setOver(s);
                  }}
                  onDragLeave={() => setOver((o) => (o === s ? null : o))}
                  onDrop={(e) => {
                    e.preventDefault();
                    setOver(null);
                    const job = d.jobs.find((j) => j.id === e.dataTransfer.getData('text/plain'));
                    if (job) void move(job, s);
                  }}
                >
                  <h3>
                    <span>
                      {s + 1}. {name}
                    </span>
                    <span className="muted">{cards.length}</span>
                  </h3>
                  {cards.map((j) => (
                    <div
                      key={j.id}
                      className={`card${active === j.id ? ' sel' : ''}`}
                      tabIndex={0}
                      onFocus={() => setActive(j.id)}
                      onClick={() => setActive(j.id)}
                      draggable
                      data-job={j.id}
                      ref={(el) => {
                        if (el && focusAfterMove.current === j.id && document.activeElement !== el) {
                          focusAfterMove.current = null;
                          el.focus();
                        }
                      }}
                      aria-label={`${j.t} 工程 ${name}`}
                      onDragStart={(e) => e.dataTransfer.setData('text/plain', j.id)}
                      onDoubleClick={() => setEdit(j)}
                      onKeyDown={(e) => {
                        if (e.key === 'ArrowRight') void move(j, j.s + 1);
                        else if (e.key === 'ArrowLeft') void move(j, j.s - 1);
                        else if (e.key === 'Enter' || e.key === ' ') setEdit(j);
                        else if (e.key === 'Delete' || e.key === 'Backspace') void remove(j);
                        else return;
                        e.preventDefault();
                      }}
                    >
                      <div className="meta">
                        <Chip c={j.ch}>{j.tag || '案件'}</Chip>
                        {(() => {
                          const due = dueLabel(j.due);
                          return due ? <span style={due.late ? { color: 'var(--danger)', fontWeight: 600 } : undefined}>{due.text}</span> : <span />;
                        })()}
                      </div>
                      <div className="t">{j.t}</div>
                      {(j.devices?.length ?? 0) > 0 && (
                        <div className="meta" data-testid="job-devices">
                          <span>端末 {j.devices?.length}台</span>
                          <span className="mono">{j.devices?.slice(-1)[0]?.slice(-6)}</span>
                        </div>
                      )}
                      <div className="meta">
                        <span>{j.c}</span>
                        <span>
                          <button className="btn small" onClick={() => setEdit(j)} aria-label="編集">
                            編集
                          </button>
                        </span>
                      </div>
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        )}
      </Async>
      {edit && (
        <JobModal
          job={edit === 'new' ? null : edit}
          onClose={() => setEdit(null)}
          onSaved={(j) => {
            upsert(j);
            setEdit(null);
          }}
        />
      )}
    </>
  );
}
