import { readDue } from '../../../../shared/job-due';
import type { Doc } from '../../store/types';

/**
 * Demand the capacity view derives from the floor's own records, next to the planned load entries:
 * open job cards (units due on their 期限) and dock reservations (booked berth time per day).
 */

/** Stages 0..5 still need floor work; 出荷 (6) and 完了 (7) no longer do. */
const OPEN_STAGE_LIMIT = 6;
/** A berth is bookable 09:00–18:00. */
export const DOCK_DAY_MINUTES = 540;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Units of a job card: the devices it carries, else the count its title names (…×40台, 50台), else 0. */
function jobUnits(job: Doc): number {
  const devices = Array.isArray(job.devices) ? job.devices.length : 0;
  if (devices > 0) return devices;
  const m = /(\d{1,6})\s*台/.exec(String(job.t ?? '').normalize('NFKC'));
  return m ? Number(m[1]) : 0;
}

/** An open job card as the capacity view counts it. */
export interface OpenCard {
  id: string;
  t: string;
  c: string;
  units: number;
  /** The 期限 as written on the card. */
  due: string;
  /** The 期限 read as a date (see shared/job-due.ts), or null when it cannot be read. */
  date: string | null;
  /** The year was inferred for a month/day just past: the user should confirm it. */
  guessed: boolean;
  reason?: 'empty' | 'unreadable';
}

export interface JobDemand {
  cards: OpenCard[];
  openJobs: number;
  openUnits: number;
  /** Open cards whose 期限 cannot be read as a date (empty or text such as 来週). */
  undatedJobs: number;
  undatedUnits: number;
  /** Open cards with no unit count in devices or title. */
  unknownQtyJobs: number;
}

/** Every open card (stages 0..5) with its units and its 期限 read as a date. */
export function jobDemand(jobs: Doc[], today: string): JobDemand {
  const out: JobDemand = { cards: [], openJobs: 0, openUnits: 0, undatedJobs: 0, undatedUnits: 0, unknownQtyJobs: 0 };
  for (const j of jobs) {
    const stage = Number(j.s);
    if (Number.isFinite(stage) && stage >= OPEN_STAGE_LIMIT) continue;
    const units = jobUnits(j);
    out.openJobs += 1;
    out.openUnits += units;
    if (units === 0) out.unknownQtyJobs += 1;
    const due = typeof j.due === 'string' ? j.due.trim() : '';
    const read = readDue(due, today);
    const card: OpenCard = { id: String(j.id), t: String(j.t ?? ''), c: String(j.c ?? ''), units, due, date: read.date, guessed: read.date !== null && read.guessed };
    if (read.date === null) {
      card.reason = read.reason;
      out.undatedJobs += 1;
      out.undatedUnits += units;
    }
    out.cards.push(card);
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
