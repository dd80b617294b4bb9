import { useState } from 'react';
import { inboundResponses } from '../../../shared/api/contracts/inbound';
import { describeError } from '../api';
import { Modal } from '../components/ui';
import { postWithProgress, readAsBase64, REASON_LABEL, type InboundCreated, type InboundMapping, type InboundPreview } from '../lib/inbound-api';

type Step = { label: string; value: number } | null;

function ProgressBar({ step }: { step: Step }) {
  if (!step) return null;
  return (
    <div className="row" data-testid="inbound-progress" style={{ gap: 8 }}>
      <span style={{ minWidth: 140 }}>{step.label}</span>
      <progress max={1} value={step.value} style={{ flex: 1 }} aria-label={step.label} />
      <span className="num">{Math.round(step.value * 100)}%</span>
    </div>
  );
}

function mappingOf(m: Record<string, string>): InboundMapping | undefined {
  const out: InboundMapping = {};
  for (const k of ['imei', 'serial', 'model', 'note'] as const) if (m[k]?.trim()) out[k] = m[k].trim().toUpperCase();
  if (m.headerRow?.trim()) out.headerRow = Number(m.headerRow);
  if (m.sheet?.trim()) out.sheet = m.sheet.trim();
  return Object.keys(out).length ? out : undefined;
}

function Preview({ p }: { p: InboundPreview }) {
  const cols = p.columns;
  const found = (label: string, v: string | null) => `${label}: ${v ? `${v}列` : 'なし'}`;
  const width = Math.max(p.headers.length, ...p.rows.map((r) => r.cells.length));
  return (
    <div data-testid="inbound-preview">
      <p>
        {p.kind === 'xlsx' ? `Excel（シート「${p.sheet ?? ''}」）` : `CSV（${p.encoding === 'shift_jis' ? 'Shift_JIS' : 'UTF-8'}・区切り ${p.delimiter === '\t' ? 'タブ' : p.delimiter === ';' ? 'セミコロン' : 'カンマ'}）`}
        ／ 見出し行: {cols.headerRow ? `${cols.headerRow}行目` : 'なし'} ／ {found('IMEI', cols.imei)} ／ {found('シリアル', cols.serial)} ／ {found('機種', cols.model)} ／ {found('備考', cols.note)}
      </p>
      <p data-testid="inbound-preview-summary">
        データ {p.total} 行 ／ 取込可能 <b>{p.valid}</b> 台 ／ 取り込まない行 <b>{p.errorCount}</b> 行
      </p>
      <div style={{ overflowX: 'auto' }}>
        <table className="t">
          <thead>
            <tr>
              <th>行</th>
              {Array.from({ length: width }, (_, i) => (
                <th key={i}>{p.headers[i] || String.fromCharCode(65 + (i % 26))}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {p.rows.map((r) => (
              <tr key={r.row}>
                <td className="num">{r.row}</td>
                {Array.from({ length: width }, (_, i) => (
                  <td key={i} className="mono">
                    {r.cells[i] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <RowErrors errors={p.errors} count={p.errorCount} />
    </div>
  );
}

export function RowErrors({ errors, count }: { errors: InboundPreview['errors']; count: number }) {
  if (count === 0) return null;
  return (
    <div data-testid="inbound-row-errors" role="alert">
      <strong>取り込まない行（{count}行{count > errors.length ? `、先頭 ${errors.length} 行を表示` : ''}）</strong>
      <ul style={{ maxHeight: 160, overflowY: 'auto', margin: '4px 0' }}>
        {errors.map((er) => (
          <li key={`${er.row}-${er.reason}`}>
            {er.row}行目: {REASON_LABEL[er.reason]}
            {er.value ? `（${er.value}）` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * 入荷予定の取り込み: name, customer and file; the file is previewed (detected columns, the first rows, the rows
 * that will not be taken with their row numbers) before it is imported, with a progress bar while it is read
 * and sent. Column letters and the header row can be given when the headers are not recognised.
 */
export function InboundUpload({ onClose, onImported }: { onClose: () => void; onImported: (r: InboundCreated) => void }) {
  const [name, setName] = useState('');
  const [cust, setCust] = useState('');
  const [file, setFile] = useState<{ name: string; b64: string } | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<InboundPreview | null>(null);
  const [step, setStep] = useState<Step>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const runPreview = async (f: { name: string; b64: string }, m = mapping) => {
    setProblem('');
    setPreview(null);
    setStep({ label: 'ファイルを確認中', value: 0 });
    try {
      setPreview(await postWithProgress('/api/inbound/preview', { file: f.b64, filename: f.name, mapping: mappingOf(m) }, inboundResponses.preview, (v) => setStep({ label: 'ファイルを確認中', value: v })));
    } catch (err) {
      setProblem(describeError(err));
    } finally {
      setStep(null);
    }
  };

  const pick = async (f: File | undefined) => {
    if (!f) return;
    setProblem('');
    setStep({ label: 'ファイルを読み込み中', value: 0 });
    try {
      const b64 = await readAsBase64(f, (v) => setStep({ label: 'ファイルを読み込み中', value: v }));
      const picked = { name: f.name, b64 };
      setFile(picked);
      if (!name.trim()) setName(f.name.replace(/\.[^.]+$/, ''));
      await runPreview(picked);
    } catch (err) {
      setStep(null);
      setProblem(describeError(err));
    }
  };

  const submit = async () => {
    if (!file) return setProblem('ファイルを選んでください');
    if (!name.trim() || !cust.trim()) return setProblem('名称と顧客を入力してください');
    setBusy(true);
    setProblem('');
    setStep({ label: '取り込み中', value: 0 });
    try {
      const r = await postWithProgress('/api/inbound', { name, cust, file: file.b64, filename: file.name, mapping: mappingOf(mapping) }, inboundResponses.create, (v) =>
        setStep({ label: v < 1 ? '送信中' : 'サーバーで取り込み中', value: v }),
      );
      onImported(r);
    } catch (err) {
      setProblem(describeError(err));
    } finally {
      setBusy(false);
      setStep(null);
    }
  };

  const setMap = (k: string) => (e: { target: { value: string } }) => setMapping((m) => ({ ...m, [k]: e.target.value }));
  return (
    <Modal
      title="入荷予定の取り込み（CSV / Excel）"
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose} type="button">
            キャンセル
          </button>
          <button className="btn primary" type="submit" form="inbound-upload-form" disabled={busy || !preview || preview.valid === 0} data-testid="inbound-import">
            {preview ? `${preview.valid}台を取り込む` : '取り込む'}
          </button>
        </>
      }
    >
      <form
        id="inbound-upload-form"
        className="form"
        data-testid="inbound-upload"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="ib-name">名称</label>
        <input id="ib-name" className="in" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} placeholder="例: 11月入荷 第1便" autoFocus />
        <label htmlFor="ib-cust">顧客</label>
        <input id="ib-cust" className="in" value={cust} maxLength={60} onChange={(e) => setCust(e.target.value)} placeholder="顧客名" />
        <label htmlFor="ib-file">ファイル</label>
        <input id="ib-file" className="in" type="file" accept=".csv,.tsv,.txt,.xlsx" data-testid="inbound-file" onChange={(e) => void pick(e.target.files?.[0])} />
        <span>列の指定（任意）</span>
        <div className="row" style={{ gap: 6, flexWrap: 'wrap' }}>
          {(
            [
              ['imei', 'IMEI列'],
              ['serial', 'シリアル列'],
              ['model', '機種列'],
              ['headerRow', '見出し行'],
              ['sheet', 'シート名'],
            ] as const
          ).map(([k, label]) => (
            <label key={k} style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}>
              {label}
              <input className="in" style={{ width: k === 'sheet' ? 120 : 56 }} value={mapping[k] ?? ''} onChange={setMap(k)} aria-label={label} />
            </label>
          ))}
          <button className="btn small" type="button" disabled={!file} onClick={() => file && void runPreview(file)}>
            指定で再確認
          </button>
        </div>
      </form>
      <ProgressBar step={step} />
      {problem && (
        <p role="alert" style={{ color: 'var(--danger)', fontWeight: 600 }} data-testid="inbound-upload-problem">
          {problem}
        </p>
      )}
      {preview && <Preview p={preview} />}
    </Modal>
  );
}
