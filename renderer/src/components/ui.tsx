import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { describeError } from '../../../shared/api/client';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
  setData: (fn: (prev: T | null) => T | null) => void;
}

/** Load once (and again on reload / deps change); keeps the last data while reloading. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [data, setDataState] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const fnRef = useRef(fn);
  fnRef.current = fn;
  useEffect(() => {
    let live = true;
    setLoading(true);
    fnRef
      .current()
      .then((d) => {
        if (!live) return;
        setDataState(d);
        setError(null);
      })
      .catch((e: unknown) => live && setError(e))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tick, ...deps]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const setData = useCallback((f: (prev: T | null) => T | null) => setDataState((p) => f(p)), []);
  return { data, error, loading, reload, setData };
}

/**
 * Props that make a clickable row or card reachable by Tab and operable by Enter or Space, like a button.
 * Keys pressed on a control inside the row (a button, an input) are left to that control.
 */
export function activateOnKey(activate: () => void, current = false) {
  return {
    tabIndex: 0,
    onClick: activate,
    'aria-current': current ? ('true' as const) : undefined,
    onKeyDown: (e: React.KeyboardEvent<HTMLElement>) => {
      if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
      e.preventDefault();
      activate();
    },
  };
}

export function Loading({ what = 'データ' }: { what?: string }) {
  return (
    <div className="state" role="status">
      <span className="spinner" />
      {what}を読み込み中…
    </div>
  );
}

export function ErrorState({ error, what, onRetry }: { error: unknown; what?: string; onRetry?: () => void }) {
  return (
    <div className="state error" role="alert">
      <strong>{what ? `${what}を読み込めませんでした` : 'エラーが発生しました'}</strong>
      <div>{describeError(error)}</div>
      {onRetry && (
        <button className="btn small" style={{ marginTop: 8 }} onClick={onRetry}>
          再試行
        </button>
      )}
    </div>
  );
}

/** Loading / error / content in one place, so no screen is ever blank. */
export function Async<T>({ state, what, children }: { state: Loaded<T>; what: string; children: (data: T) => ReactNode }) {
  if (state.error && !state.data) return <ErrorState error={state.error} what={what} onRetry={state.reload} />;
  if (!state.data) return <Loading what={what} />;
  return <>{children(state.data)}</>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state">{children}</div>;
}

export function Chip({ c, children }: { c?: string; children: ReactNode }) {
  return <span className={`chip ${c && /^c-[a-z]+$/.test(c) ? c : 'c-gray'}`}>{children}</span>;
}

export function Panel({ title, actions, children, style }: { title: ReactNode; actions?: ReactNode; children: ReactNode; style?: React.CSSProperties }) {
  return (
    <section className="panel" style={style}>
      <header>
        {title}
        <span className="spacer" />
        {actions}
      </header>
      {children}
    </section>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
let modalSeq = 0;

/**
 * A dialog: aria-modal, focus moves into it as it appears (the element with autoFocus, else the first field),
 * Tab and Shift+Tab stay inside, Escape closes, and focus returns where it was on close.
 */
export function Modal({ title, children, footer, onClose }: { title: string; children: ReactNode; footer?: ReactNode; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [titleId] = useState(() => `modal-title-${++modalSeq}`);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // A layout effect: focus is inside the dialog in the same commit that shows it, so a key pressed the
  // moment the dialog appears (a scanner, a fast typist) already lands in it.
  useLayoutEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const box = ref.current;
    const items = () => (box ? [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement) : []);
    if (box && !box.contains(document.activeElement)) (box.querySelector<HTMLElement>('[autofocus], [data-autofocus]') ?? items()[0] ?? box).focus();
    const k = (e: KeyboardEvent) => {
      if (e.key === 'Escape') return closeRef.current();
      if (e.key !== 'Tab' || !box) return;
      const list = items();
      const first = list[0];
      const last = list[list.length - 1];
      if (!first || !last) return e.preventDefault();
      const at = document.activeElement;
      if (!box.contains(at)) {
        e.preventDefault();
        first.focus();
      } else if (e.shiftKey && at === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && at === last) {
        e.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('keydown', k);
    return () => {
      window.removeEventListener('keydown', k);
      if (before && document.contains(before)) before.focus();
    };
  }, []);
  return createPortal(
    <div className="modal-bg" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref} tabIndex={-1}>
        <header id={titleId}>{title}</header>
        <div className="body">{children}</div>
        {footer && <footer>{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}

// ---- global confirm + toast (one instance, mounted by <Overlays/>) ----
type ConfirmReq = { message: string; ok: string; resolve: (v: boolean) => void };
type ToastItem = { id: number; text: string; error: boolean };
let pushConfirm: ((r: ConfirmReq) => void) | null = null;
let pushToast: ((t: ToastItem) => void) | null = null;
let toastSeq = 0;

/** Ask before a destructive action. Resolves true when confirmed. */
export function confirmAction(message: string, ok = '削除する'): Promise<boolean> {
  return new Promise((resolve) => (pushConfirm ? pushConfirm({ message, ok, resolve }) : resolve(window.confirm(message))));
}

export function toast(text: string, error = false): void {
  pushToast?.({ id: ++toastSeq, text, error });
}

/** Toast the Japanese description of an error. */
export function toastError(err: unknown, prefix?: string): void {
  toast(prefix ? `${prefix}: ${describeError(err)}` : describeError(err), true);
}

export function Overlays() {
  const [confirm, setConfirm] = useState<ConfirmReq | null>(null);
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  useEffect(() => {
    pushConfirm = setConfirm;
    pushToast = (t) => {
      setToasts((l) => [...l.filter((x) => x.text !== t.text), t].slice(-3));
      setTimeout(() => setToasts((l) => l.filter((x) => x.id !== t.id)), t.error ? 7000 : 3500);
    };
    // Toasts belong to the screen they were raised on.
    const clear = () => setToasts((l) => l.filter((t) => t.error));
    window.addEventListener('hashchange', clear);
    return () => {
      pushConfirm = null;
      pushToast = null;
      window.removeEventListener('hashchange', clear);
    };
  }, []);
  const close = (v: boolean) => {
    confirm?.resolve(v);
    setConfirm(null);
  };
  return (
    <>
      {confirm && (
        <Modal
          title="確認"
          onClose={() => close(false)}
          footer={
            <>
              <button className="btn" onClick={() => close(false)}>
                キャンセル
              </button>
              <button className="btn danger solid" autoFocus onClick={() => close(true)}>
                {confirm.ok}
              </button>
            </>
          }
        >
          {confirm.message}
        </Modal>
      )}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast${t.error ? ' error' : ''}`} role={t.error ? 'alert' : 'status'}>
            {t.text}
          </div>
        ))}
      </div>
    </>
  );
}

export const yen = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? `¥${Math.round(n).toLocaleString('ja-JP')}` : '—');
export const fmtTs = (ts: unknown) => {
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return '—';
  return new Date(ts).toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
};
/** Today in JST as YYYY-MM-DD. */
export const todayJst = () => new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
