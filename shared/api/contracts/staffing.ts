/** Wire contract of staff, shifts, time clock and dock reservations. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

export const Staff = z.looseObject({ id: str, name: optStr, type: optStr });
export type Staff = z.infer<typeof Staff>;
export const SHIFT_VALUES = ['day', 'late', 'night', 'disp', 'off'] as const;
export type ShiftValue = (typeof SHIFT_VALUES)[number];
export const Grid = z.record(z.string(), z.array(z.string()));
export type Grid = z.infer<typeof Grid>;
export const ClockRow = z.looseObject({ in: str.nullable().optional(), out: str.nullable().optional(), status: optStr, units: num.optional() });
export type ClockRow = z.infer<typeof ClockRow>;
export const ShiftDraft = z.looseObject({
  grid: Grid,
  diff: z.array(z.looseObject({ staffId: str, day: num, from: optStr, to: optStr })).optional(),
  ts: num.optional(),
  status: optStr,
});
export type ShiftDraft = z.infer<typeof ShiftDraft>;
export const RosterSnapshot = z.looseObject({ id: str, ts: num.optional(), reason: optStr, grid: Grid.optional() });
export type RosterSnapshot = z.infer<typeof RosterSnapshot>;

export const DockReservation = z.looseObject({
  id: str,
  date: optStr,
  start: optStr,
  dur: num.optional(),
  size: optStr,
  dir: optStr,
  cust: optStr,
  note: optStr,
  berth: optStr,
});
export type DockReservation = z.infer<typeof DockReservation>;
