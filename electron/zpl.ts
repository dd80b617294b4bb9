import { connect as netConnect, type Socket } from 'node:net';
import type { PrintResult } from '../shared/station-bridge';

export const ZPL_PORT = 9100;
/** Largest ZPL job accepted from the window (a label with embedded graphics stays far below). */
export const ZPL_MAX_BYTES = 2 * 1024 * 1024;

export interface ZplJob {
  host: string;
  port?: number;
  zpl: string;
  timeoutMs?: number;
}

type Connect = (port: number, host: string) => Socket;

function reasonOf(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `プリンター ${host}:${port} に接続できません（接続拒否）`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `プリンター ${host} が見つかりません`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `プリンター ${host} に到達できません`;
    case 'ETIMEDOUT':
      return `プリンター ${host}:${port} が応答しません`;
    default:
      return `プリンター ${host}:${port} への送信に失敗しました: ${err.message}`;
  }
}

/**
 * Raw ZPL over TCP (port 9100) to a networked Zebra printer: connect, write, half-close,
 * and report ok once the printer closed the connection or accepted all bytes.
 */
export function sendZpl(job: ZplJob, connect: Connect = netConnect): Promise<PrintResult> {
  const host = job.host.trim();
  const port = job.port ?? ZPL_PORT;
  if (!host) return Promise.resolve({ ok: false, reason: 'Zebraプリンターのホストが設定されていません' });
  if (!Number.isInteger(port) || port < 1 || port > 65535) return Promise.resolve({ ok: false, reason: 'ポート番号が正しくありません' });
  if (!job.zpl.trim()) return Promise.resolve({ ok: false, reason: 'ZPLが空です' });
  const data = Buffer.from(job.zpl, 'utf8');
  if (data.length > ZPL_MAX_BYTES) return Promise.resolve({ ok: false, reason: 'ZPLが大きすぎます' });

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PrintResult) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(result);
    };
    const socket = connect(port, host);
    socket.setTimeout(job.timeoutMs ?? 5000, () => finish({ ok: false, reason: `プリンター ${host}:${port} が応答しません` }));
    socket.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, reason: reasonOf(err, host, port) }));
    socket.on('connect', () => {
      socket.end(data, () => finish({ ok: true }));
    });
    socket.on('close', () => finish({ ok: false, reason: `プリンター ${host}:${port} が接続を閉じました` }));
  });
}

/** A one-label ZPL test print (ASCII only: the printer's default font has no Japanese). */
export function testZpl(benchName: string, stamp: string): string {
  const safe = (s: string) => s.replace(/[\^~\\]/g, ' ').replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
  return [
    '^XA',
    '^CI28',
    '^FO30,30^A0N,40,40^FDKitting Station TEST^FS',
    `^FO30,90^A0N,28,28^FD${safe(benchName || 'bench')}^FS`,
    `^FO30,130^A0N,28,28^FD${safe(stamp)}^FS`,
    '^FO30,180^BQN,2,4^FDQA,KITTING-STATION-TEST^FS',
    '^XZ',
  ].join('\n');
}
