import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { Device } from '../../../shared/api/schemas';
import { api } from '../api';
import { Chip, ErrorState, Loading, confirmAction, fmtTs, toast, toastError, useLoad } from '../components/ui';
import { VirtualList } from '../components/virtual-list';
import { navigate, useRoute } from '../lib/router';
import { parseScan } from '../lib/scan';
import { useScanHandler, type ScanHandler } from '../lib/scan-service';
import { playScanSound } from '../lib/sound';
import { DEVICE_STATUSES } from '../../../shared/devices';
import { RegisterModal } from './ledger-register';
import { ScanBar, scanMsg, type ScanMsg } from './ledger-scan';

const ROW_H = 28;
type SortKey = 'imei' | 'model' | 'cust' | 'status' | 'loc' | 'user' | 'bat' | 'asset';
const COLS: { key: SortKey; label: string; w: string }[] = [
  { key: 'imei', label: 'IMEI', w: '136px' },
  { key: 'asset', label: '管理番号', w: '88px' },
  { key: 'model', label: '機種', w: 'minmax(90px,1fr)' },
  { key: 'cust', label: '顧客', w: 'minmax(110px,1.3fr)' },
  { key: 'status', label: '状態', w: '72px' },
  { key: 'loc', label: '保管場所', w: 'minmax(70px,.8fr)' },
  { key: 'user', label: '利用者', w: 'minmax(60px,.7fr)' },
  { key: 'bat', label: '電池', w: '40px' },
];
const TEMPLATE = COLS.map((c) => c.w).join(' ');

function uniq(devs: Device[], key: 'cust' | 'model'): string[] {
  return [...new Set(devs.map((d) => d[key] ?? '').filter(Boolean))].sort((a, b) => a.localeCompare(b, 'ja'));
}

function DeviceEditor({ device, onSaved, onDeleted }: { device: Device; onSaved: (d: Device) => void; onDeleted: (imei: string) => void }) {
  const [f, setF] = useState({ status: device.status ?? '', loc: device.loc ?? '', user: device.user ?? '', bat: String(device.bat ?? ''), note: device.note ?? '' });
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const bat = Number(f.bat);
    if (f.bat.trim() !== '' && (!Number.isFinite(bat) || bat < 0 || bat > 100)) return toast('電池残量は0〜100で入力してください', true);
    setBusy(true);
    try {
      const { device: d } = await api.updateDevice(device.imei, { status: f.status, loc: f.loc, user: f.user, note: f.note, ...(f.bat.trim() !== '' ? { bat } : {}) });
      onSaved(d);
      toast(`${d.imei} を保存しました`);
    } catch (e) {
      toastError(e, '保存できませんでした');
    } finally {
      setBusy(false);
    }
  };
  const del = async () => {
    if (!(await confirmAction(`端末 ${device.imei}（${device.model ?? ''}）を台帳から削除します。よろしいですか？`))) return;
    try {
      await api.deleteDevice(device.imei);
      onDeleted(device.imei);
      toast('削除しました');
    } catch (e) {
      toastError(e, '削除できませんでした');
    }
  };
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((p) => ({ ...p, [k]: e.target.value }));
  return (
    <section className="panel" data-testid="device-editor">
      <header>
        端末詳細 <span className="mono">{device.imei}</span>
        <span className="spacer" />
        <Chip c={device.chip}>{device.status}</Chip>
      </header>
      <div className="body">
        <div className="form" style={{ marginBottom: 10 }}>
          <label>機種</label>
          <div>
            {device.model} <span className="muted">{device.maker}</span>
          </div>
          <label>顧客</label>
          <div>{device.cust}</div>
          <label>管理番号 / シリアル</label>
          <div className="mono">
            {device.asset} / {device.serial || <span className="muted">未取得</span>}
          </div>
          <label>MDM</label>
          <div>{device.mdm}</div>
          {Array.isArray(device.history) && device.history.length > 0 && (
            <>
              <label>履歴</label>
              <ul className="muted" data-testid="device-history" style={{ margin: 0, paddingLeft: 16 }}>
                {(device.history as { ts?: number; what?: string; detail?: string; by?: string }[])
                  .slice(-5)
                  .reverse()
                  .map((h, i) => (
                    <li key={i}>
                      {fmtTs(h.ts)} {h.what}（{h.detail}）{h.by ? `・${h.by}` : ''}
                    </li>
                  ))}
              </ul>
            </>
          )}
        </div>
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor="ed-status">状態</label>
          <select id="ed-status" className="in" value={f.status} onChange={set('status')}>
            {[...new Set([f.status, ...DEVICE_STATUSES])].filter(Boolean).map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
          <label htmlFor="ed-loc">保管場所</label>
          <input id="ed-loc" className="in" value={f.loc} maxLength={120} onChange={set('loc')} />
          <label htmlFor="ed-user">利用者</label>
          <input id="ed-user" className="in" value={f.user} maxLength={120} onChange={set('user')} />
          <label htmlFor="ed-bat">電池残量(%)</label>
          <input id="ed-bat" className="in" type="number" min={0} max={100} value={f.bat} placeholder="未取得" onChange={set('bat')} />
          <label htmlFor="ed-note">メモ</label>
          <textarea id="ed-note" className="in" rows={3} maxLength={300} value={f.note} onChange={set('note')} />
          <span />
          <div className="row">
            <button className="btn primary" type="submit" disabled={busy}>
              {busy ? '保存中…' : '保存'}
            </button>
            <span className="spacer" style={{ flex: 1 }} />
            <button className="btn danger" type="button" onClick={() => void del()}>
              削除
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}

export function LedgerScreen() {
  const state = useLoad(() => api.devices());
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  const [cust, setCust] = useState('');
  const [model, setModel] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  // Unknown IMEIs waiting for registration, in scan order ('' = bulk registration).
  const [register, setRegister] = useState<string[] | null>(null);
  const [msg, setMsg] = useState<ScanMsg>(null);
  const dq = useDeferredValue(q);
  const devices = state.data?.devices ?? null;
  const byImei = useMemo(() => new Map((devices ?? []).map((d) => [d.imei, d])), [devices]);
  const customers = useMemo(() => (devices ? uniq(devices, 'cust') : []), [devices]);
  const models = useMemo(() => (devices ? uniq(devices, 'model') : []), [devices]);
  const rows = useMemo(() => {
    if (!devices) return [];
    const needle = dq.trim().normalize('NFKC').toLowerCase();
    let out = devices.filter(
      (d) =>
        (!status || d.status === status) &&
        (!cust || d.cust === cust) &&
        (!model || d.model === model) &&
        (!needle || `${d.imei} ${d.serial ?? ''} ${d.asset ?? ''} ${d.model ?? ''} ${d.cust ?? ''} ${d.user ?? ''} ${d.loc ?? ''} ${d.note ?? ''}`.toLowerCase().includes(needle)),
    );
    if (sort) {
      const { key, dir } = sort;
      out = [...out].sort((a, b) => {
        const x = a[key] ?? '';
        const y = b[key] ?? '';
        return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'ja', { numeric: true })) * dir;
      });
    }
    return out;
  }, [devices, dq, status, cust, model, sort]);

  const replace = (list: Device[]) => state.setData((d) => d && { ...d, devices: d.devices.map((x) => list.find((y) => y.imei === x.imei) ?? x) });
  const onScan: ScanHandler = (scan) => {
    if (scan.kind !== 'imei') {
      playScanSound('error');
      setMsg(scanMsg('bad', `読み取り値「${scan.value}」: ${scan.message}`));
      return;
    }
    const imei = scan.value;
    if (!devices) {
      setPendingScans((l) => [...l, imei]);
      return;
    }
    const known = byImei.get(imei);
    if (known) {
      playScanSound('ok');
      setSelected(imei);
      setMsg(scanMsg('good', `${imei} を開きました（${known.model ?? ''}・${known.cust ?? ''}）`));
      return;
    }
    if (register?.includes(imei)) {
      playScanSound('duplicate');
      setMsg(scanMsg('info', `${imei} はすでに登録待ちです`));
      return;
    }
    playScanSound('duplicate');
    setMsg(scanMsg('info', `${imei} は台帳に未登録です。機種・顧客・MDMを選んで登録してください`));
    setRegister((q) => (q && q[0] !== '' ? [...q, imei] : [imei]));
  };
  useScanHandler(onScan);
  // A scan made on another screen arrives as #/ledger?imei=…
  const route = useRoute();
  const routeImei = route.params.get('imei');
  // Scans made before the ledger has loaded (or on another screen) wait for it, in order.
  const [pendingScans, setPendingScans] = useState<string[]>([]);
  useEffect(() => {
    if (routeImei) setPendingScans((l) => [...l, routeImei]);
  }, [routeImei]);
  useEffect(() => {
    if (pendingScans.length === 0 || !devices) return;
    const list = pendingScans;
    setPendingScans([]);
    if (routeImei) navigate('/ledger');
    for (const raw of list) {
      const r = parseScan(raw);
      if (r.kind !== 'empty') onScan(r);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pendingScans, devices]);
  const sel = selected ? (byImei.get(selected) ?? null) : null;
  const selIndex = sel ? rows.indexOf(sel) : -1;

  return (
    <>
      <ScanBar message={msg} setMessage={setMsg} />
      <div className="split" style={{ flex: 1, minHeight: 0 }}>
        <section className="panel" style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
          <header className="row">
            <input className="in" placeholder="検索（IMEI・機種・顧客・利用者…）" value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 240 }} aria-label="検索" />
            <select className="in" value={status} onChange={(e) => setStatus(e.target.value)} aria-label="状態で絞り込み">
              <option value="">状態：すべて</option>
              {DEVICE_STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <select className="in" value={cust} onChange={(e) => setCust(e.target.value)} aria-label="顧客で絞り込み" style={{ maxWidth: 200 }}>
              <option value="">顧客：すべて</option>
              {customers.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <select className="in" value={model} onChange={(e) => setModel(e.target.value)} aria-label="機種で絞り込み" style={{ maxWidth: 160 }}>
              <option value="">機種：すべて</option>
              {models.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <span className="spacer" />
            <span className="muted" data-testid="ledger-count">
              {devices ? `${rows.length.toLocaleString()} / ${devices.length.toLocaleString()} 台` : ''}
            </span>
            <button className="btn" onClick={() => setRegister([''])} disabled={!devices}>
              一括登録
            </button>
          </header>
          {state.error && !devices ? (
            <div className="body">
              <ErrorState error={state.error} what="端末台帳" onRetry={state.reload} />
            </div>
          ) : !devices ? (
            <Loading what="端末台帳" />
          ) : (
            <>
              <div className="vhead" style={{ gridTemplateColumns: TEMPLATE }}>
                {COLS.map((c) => (
                  <button key={c.key} onClick={() => setSort((s) => (s?.key === c.key ? (s.dir === 1 ? { key: c.key, dir: -1 } : null) : { key: c.key, dir: 1 }))}>
                    {c.label}
                    {sort?.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
                  </button>
                ))}
              </div>
              {rows.length === 0 ? (
                <div className="state">条件に一致する端末はありません</div>
              ) : (
                <div
                  tabIndex={0}
                  role="grid"
                  aria-label="端末一覧（↑↓で選択、Home/Endで先頭・末尾、Enterで詳細へ）"
                  aria-rowcount={rows.length}
                  data-testid="ledger-grid"
                  onKeyDown={(e) => {
                    const at = selIndex;
                    const page = 15;
                    const next =
                      e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : e.key === 'PageDown' ? at + page : e.key === 'PageUp' ? at - page : e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : null;
                    if (e.key === 'Enter' && sel) {
                      e.preventDefault();
                      document.getElementById('ed-status')?.focus();
                      return;
                    }
                    if (next === null) return;
                    e.preventDefault();
                    const row = rows[Math.max(0, Math.min(rows.length - 1, next))];
                    if (row) setSelected(row.imei);
                  }}
                >
                <VirtualList
                  items={rows}
                  rowHeight={ROW_H}
                  height="calc(100vh - 250px)"
                  testId="ledger-list"
                  scrollToIndex={selIndex}
                  row={(d, _i, style) => (
                    <div key={d.imei} className={`vrow${d.imei === selected ? ' sel' : ''}`} style={{ ...style, gridTemplateColumns: TEMPLATE }} onClick={() => setSelected(d.imei)} data-imei={d.imei}>
                      <span className="mono">{d.imei}</span>
                      <span className="mono">{d.asset}</span>
                      <span>{d.model}</span>
                      <span>{d.cust}</span>
                      <span>
                        <Chip c={d.chip}>{d.status}</Chip>
                      </span>
                      <span>{d.loc}</span>
                      <span>{d.user}</span>
                      <span className="num">{d.bat ?? <span className="muted">未取得</span>}</span>
                    </div>
                  )}
                />
                </div>
              )}
            </>
          )}
        </section>
        <div>
          {sel ? (
            <DeviceEditor
              key={sel.imei + String(sel.updated ?? '')}
              device={sel}
              onSaved={(d) => replace([d])}
              onDeleted={(imei) => {
                state.setData((d) => d && { ...d, devices: d.devices.filter((x) => x.imei !== imei) });
                setSelected(null);
              }}
            />
          ) : (
            <section className="panel">
              <div className="state">端末をスキャンするか、一覧から選択してください</div>
            </section>
          )}
        </div>
      </div>
      {register !== null && register.length > 0 && (
        <RegisterModal
          key={register[0]}
          queue={register}
          bulk={register[0] === ''}
          customers={customers}
          models={models}
          onClose={() => setRegister(null)}
          onSkip={(imei) => setRegister((q) => q && q.filter((x) => x !== imei))}
          onCreated={(list) => {
            state.setData((d) => d && { ...d, devices: [...d.devices, ...list] });
            const first = list[0];
            if (list.length === 1 && first) {
              setSelected(first.imei);
              setMsg(scanMsg('good', `${first.imei} を登録しました（${first.model ?? ''}・${first.cust ?? ''}）`));
            }
            setRegister((q) => {
              const rest = (q ?? []).filter((x) => x !== '' && !list.some((d) => d.imei === x));
              return rest.length ? rest : null;
            });
          }}
        />
      )}
    </>
  );
}
