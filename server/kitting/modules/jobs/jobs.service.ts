import type { Doc, Tx } from '../../store/types';
import { BOARD_KEEPS_STATUSES, deviceChip } from '../../../../shared/devices';
import { DEVICES } from '../devices/devices.service';

import { deviceStatusForStage, JOB_DEVICES_MAX, JOB_STAGE_NAMES } from '../../../../shared/jobs';

export { JOB_DEVICES_MAX };
export const JOBS = 'jobs';
const HISTORY_MAX = 50;


const stageName = (s: number) => JOB_STAGE_NAMES[s] ?? String(s);
const jobDevices = (job: Doc): string[] => (Array.isArray(job.devices) ? job.devices.filter((x): x is string => typeof x === 'string') : []);

async function followStage(tx: Tx, imei: string, job: Doc, what: string, detail: string): Promise<void> {
  const dev = await tx.get(DEVICES, imei);
  if (!dev) return;
  const s = Number(job.s) || 0;
  const before = typeof dev.status === 'string' ? dev.status : '';
  // An erased, destroyed or lost device keeps that status (and its certificate) whatever the board says.
  const kept = BOARD_KEEPS_STATUSES.includes(before);
  const status = kept ? before : deviceStatusForStage(s);
  const change = kept ? `状態は${before}のまま` : before !== status ? `状態 ${before || '—'} → ${status}` : '';
  const history = Array.isArray(dev.history) ? (dev.history as Doc[]) : [];
  await tx.patch(DEVICES, imei, {
    job: String(job.id),
    jobStage: stageName(s),
    ...(kept ? {} : { status, chip: deviceChip(status) }),
    history: [...history, { ts: Date.now(), what, detail: change ? `${detail}・${change}` : detail, by: '' }].slice(-HISTORY_MAX),
    updated: Date.now(),
  });
}

export class JobDeviceError extends Error {
  constructor(
    readonly code: 'device not found',
    readonly imeis: string[],
  ) {
    super(code);
  }
}

/**
 * Add devices to a job card and take others off it. Every IMEI added must be in the ledger
 * (otherwise nothing changes); a device carried by another card moves to this one. Added devices
 * take the card's stage at once.
 */
export async function changeJobDevices(tx: Tx, jobId: string, add: string[], remove: string[]): Promise<Doc | null> {
  const job = await tx.get(JOBS, jobId);
  if (!job) return null;
  const missing: string[] = [];
  for (const imei of add) if (!(await tx.get(DEVICES, imei))) missing.push(imei);
  if (missing.length) throw new JobDeviceError('device not found', missing);
  const removing = new Set(remove);
  const list = jobDevices(job).filter((x) => !removing.has(x));
  const fresh = add.filter((x, i) => !list.includes(x) && add.indexOf(x) === i);
  for (const imei of fresh) {
    const dev = await tx.get(DEVICES, imei);
    const other = typeof dev?.job === 'string' && dev.job !== jobId ? await tx.get(JOBS, dev.job) : null;
    if (other) await tx.patch(JOBS, String(other.id), { devices: jobDevices(other).filter((x) => x !== imei) });
    await followStage(tx, imei, job, '案件に追加', `${String(job.t ?? job.id)}（工程 ${stageName(Number(job.s) || 0)}）`);
  }
  for (const imei of remove) {
    const dev = await tx.get(DEVICES, imei);
    if (dev?.job === jobId) await tx.patch(DEVICES, imei, { job: '', jobStage: '' });
  }
  return tx.patch(JOBS, jobId, { devices: [...list, ...fresh].slice(0, JOB_DEVICES_MAX) });
}

/** A card moved to another stage: its devices move with it. */
export async function moveJobDevices(tx: Tx, before: Doc, after: Doc): Promise<void> {
  const from = Number(before.s) || 0;
  const to = Number(after.s) || 0;
  if (from === to) return;
  for (const imei of jobDevices(after)) await followStage(tx, imei, after, '工程移動', `${String(after.t ?? after.id)}: ${stageName(from)} → ${stageName(to)}`);
}

/** A deleted card releases its devices. */
export async function releaseJobDevices(tx: Tx, job: Doc): Promise<void> {
  for (const imei of jobDevices(job)) {
    const dev = await tx.get(DEVICES, imei);
    if (dev?.job === job.id) await tx.patch(DEVICES, imei, { job: '', jobStage: '' });
  }
}
