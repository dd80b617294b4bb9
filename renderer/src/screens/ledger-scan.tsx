import { useLayoutEffect, useRef } from 'react';
import { isScanTerminator, parseScan } from '../lib/scan';
import { emitScan } from '../lib/scan-service';

export type ScanMsg = { tone: 'good' | 'bad' | 'info'; text: string; at?: number } | null;

/** A message for the scan bar, stamped so a repeated scan visibly gives a new answer. */
export function scanMsg(tone: 'good' | 'bad' | 'info', text: string): ScanMsg {
  return { tone, text, at: Date.now() };
}

const timeOf = (at: number) => new Date(at).toLocaleTimeString('ja-JP', { timeZone: 'Asia/Tokyo', hour12: false });

/**
 * The visible scan field. Scans are recognised by the window's scan service wherever focus is;
 * this field shows what is being keyed in by hand and hands it over on Enter or Tab.
 */
export function ScanField({ id = 'scan', placeholder, autoFocus = true, onKana }: { id?: string; placeholder: string; autoFocus?: boolean; onKana?: (message: string) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  // Focused in the commit that shows the field: a scan arriving right after the screen opens lands here whole.
  useLayoutEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  return (
    <input
      id={id}
      ref={ref}
      className="in mono"
      data-testid={id}
      data-scan-input=""
      autoComplete="off"
      spellCheck={false}
      inputMode="numeric"
      placeholder={placeholder}
      onChange={(e) => {
        const r = parseScan(e.target.value);
        if (r.kind === 'kana') onKana?.(r.message);
      }}
      onKeyDown={(e) => {
        if (isScanTerminator(e.key) && !e.nativeEvent.isComposing && e.currentTarget.value.trim() !== '') {
          e.preventDefault();
          const raw = e.currentTarget.value;
          e.currentTarget.value = '';
          emitScan(raw);
        }
      }}
    />
  );
}

export function ScanBar({ message, setMessage, hint, autoFocus = true }: { message: ScanMsg; setMessage: (m: ScanMsg) => void; hint?: string; autoFocus?: boolean }) {
  return (
    <div className="scanbar">
      <label htmlFor="scan" style={{ fontWeight: 700 }}>
        スキャン
      </label>
      <ScanField autoFocus={autoFocus} placeholder="IMEIをスキャン（またはキー入力してEnter）" onKana={(m) => setMessage(scanMsg('bad', m))} />
      <div className={`msg ${message?.tone ?? ''}`} role="status" aria-live="polite" data-testid="scan-msg" key={message?.at}>
        {message ? (
          <>
            {message.text}
            {message.at ? <span className="muted"> （{timeOf(message.at)}）</span> : null}
          </>
        ) : (
          (hint ?? 'IMEI（15桁）を読み取ると端末を開きます。未登録なら登録できます。')
        )}
      </div>
    </div>
  );
}
