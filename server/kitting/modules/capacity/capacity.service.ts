import { z } from 'zod';
import { Field, looseNumber } from '../../../../shared/fields';
import { CAPACITY_KEYS } from '../../../../shared/api/contracts/backoffice';
import { jstDate } from '../../../../shared/dates';
import { declareSeries, padNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import { DOCK_DAY_MINUTES, dockDemand, jobDemand } from './capacity-demand';
import { closedReason, DOW, workDay, type WorkCalendar } from './capacity-calendar';

export const CAPACITY = 'capacity';
export const CONFIG_ID = 'config';
export const CAPACITY_LOAD = 'capacityLoad';
/** Capacity load entries CAP-0001, … */
export const LOAD_NUMBERS = declareSeries({
  name: 'cap',
  period: 'none',
  coll: CAPACITY_LOAD,
  field: 'id',
  keyed: true,
  format: (n) => `CAP-${padNumber(n, 4)}`,
  pattern: /^CAP-(?<n>\d{4,})$/,
  reserve: 100,
});
export const LOAD_SERIES = LOAD_NUMBERS.name;

export const CONFIG_KEYS = CAPACITY_KEYS;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type CapacityConfig = Record<ConfigKey, number> & { updated: number | null };

const DEFAULT_CONFIG: Record<ConfigKey, number> = {
  kittingDaily: 400,
  storageMax: 3200,
  storageUsed: 0,
  palletMax: 120,
  palletUsed: 0,
  warehouseMax: 5000,
  warehouseUsed: 0,
  staffCount: 5,
  perStaff: 80,
};

/** Each config number as the config route stores it: a finite number ≥ 0 (the push check of the config record). */
export const configFields = Object.fromEntries(CONFIG_KEYS.map((k) => [k, new Field(z.number().finite().nonnegative())])) as Record<ConfigKey, Field<number>>;

const finiteNonNeg = (v: unknown): number | null => {
  const n = looseNumber(v);
  return Number.isFinite(n) && n >= 0 ? n : null;
};

/** Stored config with every key; a missing or broken value falls back to the default. */
export function configOf(doc: Doc | null): CapacityConfig {
  const out = { ...DEFAULT_CONFIG, updated: null } as CapacityConfig;
  for (const k of CONFIG_KEYS) out[k] = finiteNonNeg(doc?.[k]) ?? DEFAULT_CONFIG[k];
  out.updated = typeof doc?.updated === 'number' ? doc.updated : null;
  return out;
}

/** Merge a request into the current config: omitted numbers keep the current value (the route refuses invalid ones). */
export function mergeConfig(current: CapacityConfig, input: Record<string, unknown>): CapacityConfig {
  const next = { ...current };
  for (const k of CONFIG_KEYS) {
    const n = finiteNonNeg(input[k]);
    if (n !== null) next[k] = n;
  }
  next.updated = Date.now();
  return next;
}

/** Units the floor can kit in one day: the configured daily figure, else staff × per-staff. */
const dailyCapacity = (c: CapacityConfig) => (c.kittingDaily > 0 ? c.kittingDaily : c.staffCount * c.perStaff);

const pct = (used: number, max: number) => (max > 0 ? Math.round((used / max) * 1000) / 10 : null);

export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Every day open: the calendar when the company has none (and for callers that do not pass one). */
const ALWAYS_OPEN: WorkCalendar = { workdays: [0, 1, 2, 3, 4, 5, 6], holidays: false, closedDates: [] };

interface DayCard {
  id: string;
  t: string;
  c: string;
  units: number;
  due: string;
  date: string;
  overdue: boolean;
  guessed: boolean;
}

/**
 * Seven days from `from`: each day's load is the planned entries plus the units of the open job cards it
 * must carry (listed in `cards`: due that day, due on the closed days after it, or late and counted on the
 * first working day from today), beside the dock's booked berth time. A closed day (weekend, public
 * holiday, company closed date) has no capacity. Cards whose 期限 cannot be read are returned in `flagged`
 * with those whose year had to be guessed, so the user can fix them; none is dropped.
 */
export function weekView(
  config: CapacityConfig,
  load: Doc[],
  from = jstDate(),
  records: { jobs?: Doc[]; dock?: Doc[] } = {},
  cal: WorkCalendar = ALWAYS_OPEN,
  today = jstDate(),
) {
  const cap = dailyCapacity(config);
  const jobs = jobDemand(records.jobs ?? [], today);
  const dock = dockDemand(records.dock ?? []);
  const dockDay = dock.berths * DOCK_DAY_MINUTES;
  const byDay = new Map<string, DayCard[]>();
  let overdueJobs = 0;
  for (const card of jobs.cards) {
    if (card.date === null) continue;
    const { day, overdue } = workDay(card.date, today, cal);
    if (overdue) overdueJobs += 1;
    const list = byDay.get(day) ?? [];
    list.push({ id: card.id, t: card.t, c: card.c, units: card.units, due: card.due, date: card.date, overdue, guessed: card.guessed });
    byDay.set(day, list);
  }
  const week = Array.from({ length: 7 }, (_, i) => {
    const date = addDays(from, i);
    const entries = load.filter((l) => l.date === date);
    const planned = entries.reduce((a, l) => a + Number(l.qty ?? 0), 0);
    const cards = byDay.get(date) ?? [];
    const jobUnits = cards.reduce((a, c) => a + c.units, 0);
    const d = dock.byDate.get(date) ?? { bookings: 0, minutes: 0, inbound: 0 };
    const qty = planned + jobUnits;
    const reason = closedReason(date, cal);
    const capacity = reason ? 0 : cap;
    return {
      date,
      dow: DOW[new Date(`${date}T00:00:00Z`).getUTCDay()],
      closed: reason !== null,
      closedReason: reason,
      load: qty,
      planned,
      jobUnits,
      jobs: cards.length,
      capacity,
      pct: pct(qty, capacity),
      over: qty > capacity,
      cards,
      entries: entries.map((l) => ({ id: String(l.id), cust: String(l.cust ?? ''), qty: Number(l.qty ?? 0), kind: String(l.kind ?? '') })),
      dockBookings: d.bookings,
      dockInbound: d.inbound,
      dockMinutes: d.minutes,
      dockPct: pct(d.minutes, dockDay),
    };
  });
  const weekLoad = week.reduce((a, d) => a + d.load, 0);
  const weekCapacity = week.reduce((a, d) => a + d.capacity, 0);
  const peak = week.reduce((best, d) => (d.load > best.load ? d : best), week[0]);
  const dockMinutes = week.reduce((a, d) => a + d.dockMinutes, 0);
  const flagged = jobs.cards
    .filter((c) => c.date === null || c.guessed)
    .map((c) => ({ id: c.id, t: c.t, c: c.c, units: c.units, due: c.due, date: c.date, reason: c.date === null ? (c.reason === 'empty' ? '期限が未入力' : '期限を日付として読めない') : '年を推定（確認してください）' }));
  const summary = {
    dailyCapacity: cap,
    staffCapacity: config.staffCount * config.perStaff,
    weekLoad,
    weekCapacity,
    utilizationPct: pct(weekLoad, weekCapacity),
    peakDate: peak.load > 0 ? peak.date : null,
    peakPct: peak.load > 0 ? peak.pct : 0,
    overDays: week.filter((d) => d.over).length,
    openDays: week.filter((d) => !d.closed).length,
    closedDays: week.filter((d) => d.closed).length,
    storagePct: pct(config.storageUsed, config.storageMax),
    palletPct: pct(config.palletUsed, config.palletMax),
    warehousePct: pct(config.warehouseUsed, config.warehouseMax),
    entries: load.length,
    from,
    to: addDays(from, 6),
    today,
    weekPlanned: week.reduce((a, d) => a + d.planned, 0),
    weekJobUnits: week.reduce((a, d) => a + d.jobUnits, 0),
    openJobs: jobs.openJobs,
    openUnits: jobs.openUnits,
    /** Days of floor work the open job cards hold at the daily capacity. */
    backlogDays: cap > 0 ? Math.round((jobs.openUnits / cap) * 10) / 10 : null,
    overdueJobs,
    undatedJobs: jobs.undatedJobs,
    undatedUnits: jobs.undatedUnits,
    flaggedJobs: flagged.length,
    unknownQtyJobs: jobs.unknownQtyJobs,
    dockBookings: week.reduce((a, d) => a + d.dockBookings, 0),
    dockMinutes,
    dockBerths: dock.berths,
    dockPct: pct(dockMinutes, dockDay * 7),
  };
  return { week, summary, flagged };
}
