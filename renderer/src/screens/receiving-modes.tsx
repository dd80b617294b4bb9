import { useState } from 'react';
import { ReceivingScreen } from './receiving';
import { InboundReceiving } from './receiving-inbound';

type Mode = 'plain' | 'inbound';
const KEY = 'kitting.receivingMode';

/**
 * 入荷セッション with its two modes: settings chosen once (every new IMEI registered), or 「入荷予定から」 (each scan
 * checked against an imported shipping notice). Only the chosen mode is mounted, so only it receives scans.
 */
export function ReceivingModes() {
  const [mode, setMode] = useState<Mode>(() => (sessionStorage.getItem(KEY) === 'inbound' ? 'inbound' : 'plain'));
  const choose = (m: Mode) => {
    sessionStorage.setItem(KEY, m);
    setMode(m);
  };
  return (
    <>
      <div className="row" role="tablist" aria-label="入荷のしかた" data-testid="receiving-modes">
        {(
          [
            ['plain', '設定して登録'],
            ['inbound', '入荷予定から'],
          ] as const
        ).map(([m, label]) => (
          <button key={m} role="tab" aria-selected={mode === m} className={`btn small${mode === m ? ' primary' : ''}`} onClick={() => choose(m)} data-testid={`receiving-mode-${m}`}>
            {label}
          </button>
        ))}
      </div>
      {mode === 'inbound' ? <InboundReceiving /> : <ReceivingScreen />}
    </>
  );
}
