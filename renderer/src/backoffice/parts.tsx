import type { ReactNode } from 'react';
import { ApiError, describeError, plainMessage } from '../../../shared/api/client';

export type Rec = Record<string, unknown>;
export type Col = [key: string, label: string, fmt?: (v: unknown, r: Rec) => ReactNode];
export type FormValues = Record<string, string | number | boolean>;

export const s = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
/** A form value as a number; blank reads as undefined (the server applies its default). */
export const optNum = (v: unknown): number | undefined => {
  if (v === '' || v === null || v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
};
export const optStr = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v).trim());

/** Read-only table of plain records. */
export function RecordTable({ rows, cols, empty, testId }: { rows: Rec[]; cols: Col[]; empty: string; testId?: string }) {
  if (rows.length === 0) return <div className="state">{empty}</div>;
  return (
    <div style={{ maxHeight: 480, overflow: 'auto' }} data-testid={testId}>
      <table className="t">
        <thead>
          <tr>
            {cols.map(([k, l]) => (
              <th key={`${k}-${l}`}>{l}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={s(r.id ?? r.no ?? i)}>
              {cols.map(([k, l, f]) => (
                <td key={`${k}-${l}`}>{f ? f(r[k], r) : s(r[k])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Kpis({ items, testId }: { items: [label: string, value: ReactNode][]; testId?: string }) {
  return (
    <div className="kpis" data-testid={testId}>
      {items.map(([l, v]) => (
        <div className="kpi" key={l}>
          <div className="label">{l}</div>
          <div className="value" style={{ fontSize: 17 }}>
            {v}
          </div>
        </div>
      ))}
    </div>
  );
}

/** Messages of a 4xx body's `issues` (strings or {message}). */
function issuesOf(err: unknown): string[] {
  if (!(err instanceof ApiError) || !Array.isArray(err.body?.issues)) return [];
  return (err.body.issues as unknown[]).map((i) => plainMessage(typeof i === 'string' ? i : i && typeof i === 'object' && 'message' in i ? s((i as Rec).message) : s(i)));
}

/** An error that stays on screen: the Japanese explanation, the server's own error text and any issues. */
export function ErrorBox({ title, error, testId }: { title: string; error: unknown; testId?: string }) {
  const issues = issuesOf(error);
  const code = error instanceof ApiError && error.status > 0 ? error.error : null;
  return (
    <div className="state error" role="alert" data-testid={testId}>
      <strong>{title}</strong>
      {issues.length === 0 ? (
        <div>
          {describeError(error)}
          {code && <span className="muted mono"> （{code}）</span>}
        </div>
      ) : (
        code && <div className="muted mono">{code}</div>
      )}
      {issues.length > 0 && (
        <ul style={{ margin: '6px 0 0', paddingLeft: 20 }}>
          {issues.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
