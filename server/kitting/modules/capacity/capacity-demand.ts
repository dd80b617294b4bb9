import type { Doc } from '../../../core/store/types';

/**
 * Demand the capacity view derives from the floor's own records, next to the planned load entries:
 * open job cards (units due on their 期限) and dock reservations (booked berth time per day).
 */

/** Stages 0..5 still need floor work; 出荷 (6) and 完了 (7) no longer do. */
export const OPEN_STAGE_LIMIT = 6;
/** A berth is bookable 09:00–18:00. */
export const DOCK_DAY_MINUTES = 540;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Units of a job card: the devices it carries, else the count its title names (…×40台, 50台), else 0. */
export function jobUnits(job: Doc): number {
  const devices = Array.isArray(job.devices) ? job.devices.length : 0;
  if (devices > 0) return devices;
  const m = /(\d{1,6})\s*台/.exec(String(job.t ?? '').normalize('NFKC'));
  return m ? Number(m[1]) : 0;
}

export interface JobDemand {
  /** Units due per date (YYYY-MM-DD); open cards already past their date are due today. */
  byDate: Map<string, { units: number; jobs: number }>;
  openJobs: number;
  openUnits: number;
  overdueJobs: number;
  /** Open cards whose 期限 is not a date (older free-text labels such as 12/10, or none). */
  undatedJobs: number;
  undatedUnits: number;
  /** Open cards with no unit count in devices or title. */
  unknownQtyJobs: number;
}

export function jobDemand(jobs: Doc[], today: string): JobDemand {
  const out: JobDemand = { byDate: new Map(), openJobs: 0, openUnits: 0, overdueJobs: 0, undatedJobs: 0, undatedUnits: 0, unknownQtyJobs: 0 };
  for (const j of jobs) {
    const stage = Number(j.s);
    if (Number.isFinite(stage) && stage >= OPEN_STAGE_LIMIT) continue;
    const units = jobUnits(j);
    out.openJobs += 1;
    out.openUnits += units;
    if (units === 0) out.unknownQtyJobs += 1;
    const due = typeof j.due === 'string' ? j.due.trim() : '';
    if (!ISO_DATE.test(due)) {
      out.undatedJobs += 1;
      out.undatedUnits += units;
      continue;
    }
    const day = due < today ? today : due;
    if (due < today) out.overdueJobs += 1;
    const cur = out.byDate.get(day) ?? { units: 0, jobs: 0 };
    out.byDate.set(day, { units: cur.units + units, jobs: cur.jobs + 1 });
  }
  return out;
}

export interface DockDemand {
  byDate: Map<string, { bookings: number; minutes: number; inbound: number }>;
  /** Berths in use across the reservations (at least 1). */
  berths: number;
}

export function dockDemand(reservations: Doc[]): DockDemand {
  const byDate = new Map<string, { bookings: number; minutes: number; inbound: number }>();
  const berths = new Set<string>();
  for (const r of reservations) {
    const date = typeof r.date === 'string' ? r.date : '';
    if (!ISO_DATE.test(date)) continue;
    berths.add(String(r.berth ?? '1') || '1');
    const dur = Number(r.dur);
    const cur = byDate.get(date) ?? { bookings: 0, minutes: 0, inbound: 0 };
    byDate.set(date, {
      bookings: cur.bookings + 1,
      minutes: cur.minutes + (Number.isFinite(dur) && dur > 0 ? dur : 60),
      inbound: cur.inbound + (r.dir === '入荷' ? 1 : 0),
    });
  }
  return { byDate, berths: Math.max(1, berths.size) };
}
