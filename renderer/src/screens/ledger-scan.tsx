import { useEffect, useRef, useState } from 'react';
import { isScanTerminator, parseScan } from '../lib/scan';

export type ScanMsg = { tone: 'good' | 'bad' | 'info'; text: string } | null;

const EDITABLE = 'input, select, textarea, [contenteditable="true"]';

/**
 * The scan field: keeps focus (a click elsewhere or a digit typed anywhere outside another
 * input returns to it), ends a scan on Enter or Tab (keyboard-wedge scanners), validates IMEI.
 */
export function ScanBar({ onImei, message, setMessage }: { onImei: (imei: string) => void; message: ScanMsg; setMessage: (m: ScanMsg) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  useEffect(() => {
    ref.current?.focus();
    const refocus = () =>
      setTimeout(() => {
        const a = document.activeElement;
        if (!a || a === document.body || !(a as HTMLElement).closest?.(`${EDITABLE}, .modal`)) ref.current?.focus();
      }, 0);
    const onKey = (e: KeyboardEvent) => {
      const a = document.activeElement as HTMLElement | null;
      if (a && a !== ref.current && a.closest?.(EDITABLE)) return;
      if (document.querySelector('.modal')) return;
      if (e.key.length === 1 && /[0-9０-９]/.test(e.key) && a !== ref.current) ref.current?.focus();
    };
    document.addEventListener('click', refocus);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('click', refocus);
      window.removeEventListener('keydown', onKey, true);
    };
  }, []);
  const submit = () => {
    const r = parseScan(value);
    if (r.kind === 'empty') return;
    setValue('');
    if (r.kind === 'imei') onImei(r.value);
    else setMessage({ tone: 'bad', text: r.message });
  };
  return (
    <div className="scanbar">
      <label htmlFor="scan" style={{ fontWeight: 700 }}>
        スキャン
      </label>
      <input
        id="scan"
        ref={ref}
        className="in mono"
        data-testid="scan"
        autoComplete="off"
        spellCheck={false}
        inputMode="numeric"
        placeholder="IMEIをスキャン（またはキー入力してEnter）"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          const r = parseScan(e.target.value);
          if (r.kind === 'kana') setMessage({ tone: 'bad', text: r.message });
        }}
        onKeyDown={(e) => {
          if (isScanTerminator(e.key) && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <div className={`msg ${message?.tone ?? ''}`} role="status" data-testid="scan-msg">
        {message?.text ?? 'IMEI（15桁）を読み取ると端末を開きます。未登録なら登録できます。'}
      </div>
    </div>
  );
}
