import { useMemo, useState, type ReactNode } from 'react';
import { Async, Modal, activateOnKey, confirmAction, toast, toastError, useLoad } from './ui';

export interface Column<T> {
  key: string;
  label: string;
  render?: (row: T) => ReactNode;
  width?: number;
  className?: string;
}
export interface FieldDef {
  key: string;
  label: string;
  type?: 'text' | 'number' | 'select' | 'textarea' | 'checkbox' | 'date';
  options?: string[];
  /** Japanese labels of select values stored in another form (e.g. draft → 下書き). */
  optionLabels?: Record<string, string>;
  max?: number;
  required?: boolean;
  /** Free text with these suggestions (a datalist). */
  suggest?: string[];
  /** Extra hint under the label. */
  hint?: string;
}
type Values = Record<string, string | number | boolean>;

/** Fields shown but not editable on one row (e.g. an issued invoice), with why. */
export interface Locked {
  fields: string[];
  note: string;
}

function FormModal({ title, fields, initial, locked, onClose, onSubmit }: { title: string; fields: FieldDef[]; initial: Values; locked?: Locked | null; onClose: () => void; onSubmit: (v: Values) => Promise<void> }) {
  const [v, setV] = useState<Values>(initial);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const missing = fields.find((f) => f.required && String(v[f.key] ?? '').trim() === '');
    if (missing) return toast(`${missing.label}を入力してください`, true);
    setBusy(true);
    try {
      await onSubmit(v);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            キャンセル
          </button>
          <button className="btn primary" disabled={busy} onClick={() => void submit()} data-testid="form-save">
            {busy ? '保存中…' : '保存'}
          </button>
        </>
      }
    >
      {locked && (
        <div className="state" role="note" data-testid="form-locked" style={{ padding: '6px 0 10px', textAlign: 'left' }}>
          {locked.note}
        </div>
      )}
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {fields.map((f, i) => {
          const id = `fm-${f.key}`;
          const val = v[f.key];
          const set = (x: string | number | boolean) => setV((p) => ({ ...p, [f.key]: x }));
          const disabled = locked?.fields.includes(f.key) === true;
          return (
            <FieldRow key={f.key} id={id} label={f.label}>
              {f.type === 'select' ? (
                <select id={id} className="in" disabled={disabled} value={String(val ?? '')} onChange={(e) => set(e.target.value)}>
                  {[...new Set([String(val ?? ''), ...(f.options ?? [])])].map((o) => (
                    <option key={o} value={o}>
                      {f.optionLabels?.[o] ?? (o || '—')}
                    </option>
                  ))}
                </select>
              ) : f.type === 'textarea' ? (
                <textarea id={id} className="in" disabled={disabled} rows={3} maxLength={f.max} value={String(val ?? '')} onChange={(e) => set(e.target.value)} />
              ) : f.type === 'checkbox' ? (
                <input id={id} type="checkbox" disabled={disabled} checked={val === true} onChange={(e) => set(e.target.checked)} />
              ) : (
                <>
                  <input
                    id={id}
                    autoFocus={i === 0 && !disabled}
                    disabled={disabled}
                    className="in"
                    type={f.type === 'number' ? 'number' : f.type === 'date' ? 'date' : 'text'}
                    maxLength={f.max}
                    list={f.suggest ? `${id}-list` : undefined}
                    placeholder={f.hint}
                    value={String(val ?? '')}
                    onChange={(e) => set(f.type === 'number' && e.target.value !== '' ? Number(e.target.value) : e.target.value)}
                  />
                  {f.suggest && (
                    <datalist id={`${id}-list`}>
                      {f.suggest.map((o) => (
                        <option key={o} value={o} />
                      ))}
                    </datalist>
                  )}
                </>
              )}
            </FieldRow>
          );
        })}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

function FieldRow({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {children}
    </>
  );
}

/** List + search + create/edit form + confirmed delete for a plain collection. */
export function CrudTable<T extends Record<string, unknown>>({
  what,
  load,
  idOf,
  columns,
  fields,
  create,
  update,
  remove,
  detail,
  defaults = {},
  toolbar,
  reloadKey,
  onChanged,
  rowActions,
  testId,
  title,
  locked,
}: {
  what: string;
  load: () => Promise<T[]>;
  idOf: (row: T) => string;
  columns: Column<T>[];
  fields?: FieldDef[];
  create?: (v: Values) => Promise<T>;
  update?: (id: string, v: Values) => Promise<T>;
  remove?: (id: string) => Promise<unknown>;
  detail?: (row: T, replace: (r: T) => void) => ReactNode;
  defaults?: Values;
  toolbar?: ReactNode;
  /** Load again whenever this value changes. */
  reloadKey?: unknown;
  /** Called after a successful create, update or delete (e.g. to refresh totals elsewhere). */
  onChanged?: () => void;
  /** Extra buttons per row, before 編集 / 削除. */
  rowActions?: (row: T, replace: (r: T) => void) => ReactNode;
  testId?: string;
  /** Heading shown before the search box (screens with several tables). */
  title?: ReactNode;
  /** Fields of a row that its edit form shows read-only. */
  locked?: (row: T) => Locked | null;
}) {
  const state = useLoad(load, [reloadKey]);
  const [q, setQ] = useState('');
  const [form, setForm] = useState<{ row: T | null } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const rows = useMemo(() => {
    const n = q.trim().normalize('NFKC').toLowerCase();
    const list = state.data ?? [];
    return n ? list.filter((r) => Object.values(r).some((x) => (typeof x === 'string' || typeof x === 'number') && String(x).toLowerCase().includes(n))) : list;
  }, [state.data, q]);
  const replace = (r: T) => state.setData((l) => l && (l.some((x) => idOf(x) === idOf(r)) ? l.map((x) => (idOf(x) === idOf(r) ? r : x)) : [r, ...l]));
  const del = async (r: T) => {
    if (!remove || !(await confirmAction(`${what}「${idOf(r)}」を削除します。よろしいですか？`))) return;
    try {
      await remove(idOf(r));
      state.setData((l) => l && l.filter((x) => idOf(x) !== idOf(r)));
      if (selected === idOf(r)) setSelected(null);
      toast('削除しました');
      onChanged?.();
    } catch (e) {
      toastError(e, '削除できませんでした');
    }
  };
  const sel = selected ? (state.data ?? []).find((r) => idOf(r) === selected) : undefined;
  const table = (
    <section className="panel" data-testid={testId}>
      <header className="row">
        {title && <strong>{title}</strong>}
        <input className="in" placeholder="検索" aria-label={`${what}を検索`} value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 220 }} />
        {toolbar}
        <span className="spacer" />
        <span className="muted">{state.data ? `${rows.length}件` : ''}</span>
        {create && fields && (
          <button className="btn primary" onClick={() => setForm({ row: null })}>
            ＋ 新規
          </button>
        )}
      </header>
      <Async state={state} what={what}>
        {() =>
          rows.length === 0 ? (
            <div className="state">{q ? '条件に一致するデータはありません' : `${what}はまだありません`}</div>
          ) : (
            <div style={{ maxHeight: 'calc(100vh - 190px)', overflow: 'auto' }}>
              <table className="t">
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th key={c.key} style={c.width ? { width: c.width } : undefined}>
                        {c.label}
                      </th>
                    ))}
                    {(update || remove || rowActions) && <th style={{ width: 100 }} />}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr
                      key={idOf(r)}
                      className={detail ? 'clickable' : undefined}
                      {...(detail ? activateOnKey(() => setSelected(idOf(r)), selected === idOf(r)) : {})}
                      style={selected === idOf(r) ? { background: '#ddf4ff' } : undefined}
                    >
                      {columns.map((c) => (
                        <td key={c.key} className={c.className}>
                          {c.render ? c.render(r) : String(r[c.key] ?? '')}
                        </td>
                      ))}
                      {(update || remove || rowActions) && (
                        <td style={{ textAlign: 'right', whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
                          {rowActions?.(r, replace)}{' '}
                          {update && fields && (
                            <button className="btn small" onClick={() => setForm({ row: r })}>
                              編集
                            </button>
                          )}{' '}
                          {remove && (
                            <button className="btn small danger" onClick={() => void del(r)}>
                              削除
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Async>
    </section>
  );
  return (
    <>
      {detail ? (
        <div className="split">
          {table}
          <div>{sel ? detail(sel, replace) : <section className="panel"><div className="state">一覧から選択すると詳細を表示します</div></section>}</div>
        </div>
      ) : (
        table
      )}
      {form && fields && (
        <FormModal
          title={form.row ? `${what}を編集` : `${what}を追加`}
          fields={fields}
          locked={form.row ? locked?.(form.row) : null}
          initial={form.row ? Object.fromEntries(fields.map((f) => [f.key, (form.row?.[f.key] as string | number | boolean) ?? ''])) : { ...Object.fromEntries(fields.map((f) => [f.key, f.type === 'checkbox' ? false : ''])), ...defaults }}
          onClose={() => setForm(null)}
          onSubmit={async (v) => {
            try {
              const r = form.row && update ? await update(idOf(form.row), v) : create ? await create(v) : null;
              if (r) replace(r);
              setForm(null);
              toast('保存しました');
              onChanged?.();
            } catch (e) {
              toastError(e, '保存できませんでした');
            }
          }}
        />
      )}
    </>
  );
}
