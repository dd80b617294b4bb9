import type { Doc, Tx } from '../../store/types';
import { deviceChip } from '../../../../shared/devices';
import { DEVICES } from '../devices/devices.service';
import type { CertData } from './certs.service';

/** Status a device has after its data was erased (physical destruction retires it). */
const ERASED_STATUS = '消去済';
const DESTROYED_STATUS = '廃棄';
/** Newest history entries a device keeps. */
const DEVICE_HISTORY_MAX = 50;

export interface DeviceHistoryEntry {
  ts: number;
  what: string;
  detail: string;
  by: string;
}

/**
 * Record an issued certificate on every listed device that is in the ledger: its status becomes
 * 消去済 (廃棄 for physical destruction), it remembers the certificate, and a history entry says
 * when, how and by whom. Returns the IMEIs updated.
 */
export async function recordErasure(tx: Tx, cert: CertData): Promise<string[]> {
  const status = cert.methodKey === 'destroy' ? DESTROYED_STATUS : ERASED_STATUS;
  const updated: string[] = [];
  const seen = new Set<string>();
  for (const d of cert.devices) {
    if (!d.id || seen.has(d.id)) continue;
    seen.add(d.id);
    const current = await tx.get(DEVICES, d.id);
    if (!current) continue;
    const prior = Array.isArray(current.history) ? (current.history as Doc[]) : [];
    const entry: DeviceHistoryEntry = {
      ts: cert.issuedAt,
      what: 'データ消去',
      detail: `${cert.method} / ${cert.nist}・証明書 ${cert.no}（実施日 ${cert.date}）`,
      by: cert.operator,
    };
    await tx.patch(DEVICES, d.id, {
      status,
      chip: deviceChip(status),
      erasure: { cert: cert.no, methodKey: cert.methodKey, date: cert.date, operator: cert.operator },
      history: [...prior, entry].slice(-DEVICE_HISTORY_MAX),
      updated: cert.issuedAt,
    });
    updated.push(d.id);
  }
  return updated;
}
