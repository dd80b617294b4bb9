/** Demand forecast: the planning constants, the saved preferences and the weekly load read from capacity bookings. */
import { jstDate } from '../../../../shared/dates';
import { collectionSchema, ruleFields } from '../../http/collection-schema';
import { badRequest } from '../../../core/errors';
import { addDays } from '../capacity/capacity.service';

export const FORECAST = 'forecast';
export const PREFS_ID = 'prefs';
const WEEKS = 16;

/** The planning constants of the contract (units per person per day, yen). */
export const FORECAST_CONSTANTS = {
  PER_PERSON: 80,
  BASE_STAFF: 2,
  WORKDAYS: 5,
  CEIL_DAY: 192,
  COST_PER_STAFF: 310000,
  COST_MONTHS: 2,
  DEAL_REV: 3850000,
  DEAL_GROSS: 1900000,
} as const;

const HORIZONS = [8, 12, 16] as const;
const SIMS = [0, 1, 2] as const;
const DEFAULT_PREFS = { horizon: 12, sim: 0 };

/** Monday of the JST week containing `date`. */
function weekStart(date: string): string {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((dow + 6) % 7));
}

/** Units booked per week (capacity load entries), 16 weeks from this week's Monday. */
export function weeklyLoad(load: { date?: unknown; qty?: unknown }[], today = jstDate()): number[] {
  const start = weekStart(today);
  const weekly = Array<number>(WEEKS).fill(0);
  const startMs = Date.parse(`${start}T00:00:00Z`);
  for (const l of load) {
    if (typeof l.date !== 'string') continue;
    const ms = Date.parse(`${l.date}T00:00:00Z`);
    if (Number.isNaN(ms)) continue;
    const w = Math.floor((ms - startMs) / (7 * 86_400_000));
    if (w >= 0 && w < WEEKS) weekly[w] += Number(l.qty) || 0;
  }
  return weekly;
}

export function prefsOf(doc: Record<string, unknown> | null) {
  const horizon = HORIZONS.find((h) => h === doc?.horizon) ?? DEFAULT_PREFS.horizon;
  const sim = SIMS.find((s) => s === doc?.sim) ?? DEFAULT_PREFS.sim;
  return { horizon, sim };
}

function pick<T extends number>(raw: unknown, allowed: readonly T[], name: string): T | undefined {
  if (raw === undefined || raw === null) return undefined;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  const found = allowed.find((a) => a === n);
  if (found === undefined) throw badRequest(`invalid ${name}`, { message: `${name} は ${allowed.join(' / ')} のいずれかです` });
  return found;
}

/** The prefs fields as the prefs route reads them: 8 | 12 | 16 weeks, scenario 0 | 1 | 2, anything else 400. */
export const prefRules = {
  horizon: (v: unknown) => pick(v, HORIZONS, 'horizon'),
  sim: (v: unknown) => pick(v, SIMS, 'sim'),
};

/** The forecast prefs record: pushed values pass the prefs route's readers (a numeric string is refused: the route stores numbers). */
export const forecastSchema = collectionSchema(FORECAST, ruleFields(prefRules));
