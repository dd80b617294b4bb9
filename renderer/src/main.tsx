import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface Device {
  imei: string;
  model: string;
  cust: string;
  status: string;
  loc: string;
}

function App() {
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetch('/api/devices')
      .then((r) => r.json())
      .then((b: { ok: boolean; devices: Device[]; error?: string }) => (b.ok ? setDevices(b.devices) : setError(b.error ?? '読み込みに失敗しました')))
      .catch(() => setError('サーバーに接続できません'));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 16 }}>
      <h1>Kitting Station 端末台帳</h1>
      {error && <p role="alert">{error}</p>}
      {!devices && !error && <p>読み込み中…</p>}
      {devices && (
        <table>
          <thead>
            <tr><th>IMEI</th><th>機種</th><th>顧客</th><th>状態</th><th>保管場所</th></tr>
          </thead>
          <tbody>
            {devices.slice(0, 200).map((d) => (
              <tr key={d.imei}><td>{d.imei}</td><td>{d.model}</td><td>{d.cust}</td><td>{d.status}</td><td>{d.loc}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
