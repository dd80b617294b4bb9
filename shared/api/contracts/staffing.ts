/** Wire contract of staff, shifts, time clock and dock reservations. */
import { z } from 'zod';
import { clip, createShape, intClamp, json, patchShape, text } from '../../fields';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

export const Staff = z.looseObject({ id: str, name: optStr, type: optStr });
export type Staff = z.infer<typeof Staff>;
export const SHIFT_VALUES = ['day', 'late', 'night', 'disp', 'off'] as const;
export type ShiftValue = (typeof SHIFT_VALUES)[number];
export const Grid = z.record(z.string(), z.array(z.string()));
export type Grid = z.infer<typeof Grid>;
export const ClockRow = z.looseObject({ in: str.nullable().optional(), out: str.nullable().optional(), status: optStr, units: num.optional() });
export type ClockRow = z.infer<typeof ClockRow>;
/** One changed cell of the roster grid. */
export const GridChange = z.looseObject({ staffId: str, day: num, from: optStr, to: optStr });
export const ShiftDraft = z.looseObject({
  grid: Grid,
  diff: z.array(GridChange).optional(),
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

const Clock = z.record(z.string(), ClockRow);
/** Success bodies of the roster, draft and history routes. */
export const shiftResponses = {
  roster: ok({ grid: Grid, clock: Clock, draft: ShiftDraft.optional() }),
  save: ok({ grid: Grid, clock: Clock }),
  draft: okItem('draft', ShiftDraft),
  apply: ok({ grid: Grid, applied: z.looseObject({ ts: num, diff: z.array(GridChange), restoreId: str }), history: z.array(RosterSnapshot) }),
  discard: ok({ discarded: z.boolean(), grid: Grid }),
  history: okList('history', RosterSnapshot),
  restore: ok({ grid: Grid, restored: z.looseObject({ id: str, ts: num.optional(), reason: optStr }), history: z.array(RosterSnapshot) }),
};
/** Success bodies of the staff and time clock routes. */
export const staffResponses = {
  list: okList('staff', Staff),
  create: ok({ staff: Staff, staffList: z.array(Staff) }),
  update: okItem('staff', Staff),
  remove: ok({ id: str, staffList: z.array(Staff) }),
  punch: ok({ staffId: str, row: ClockRow }),
};
/** Success bodies of the dock reservation routes (delete answers `{ok}`). */
export const dockResponses = {
  list: okList('reservations', DockReservation),
  save: okItem('reservation', DockReservation),
  remove: ok({}),
};

/** A dock reservation as a client writes it: a known id updates it, else a new RV-NNNN is made with the defaults. */
export const dockReservationFields = {
  id: text(40).optional(),
  date: text(10).optional(),
  start: text(5).optional(),
  dur: intClamp(5, 1440, 60).optional(),
  size: text(20).optional(),
  dir: text(20).optional(),
  cust: text(120).optional(),
  note: text(300).optional(),
  berth: text(20).optional(),
  road: text(60).optional(),
  roadStatus: text(20).optional(),
  permit: text(60).optional(),
};
/** Request schemas of the dock reservation routes (date YYYY-MM-DD and start HH:MM are checked by the server). */
export const dockRequests = {
  save: createShape(dockReservationFields),
  params: z.object({ id: z.string().min(1).max(40) }),
};
export type DockReservationInput = z.input<typeof dockRequests.save>;

/** Request schemas of the roster routes (grid and clock are read row by row by the server; unknown shifts become off). */
export const shiftRequests = {
  grid: z.object({ grid: z.unknown().optional(), clock: z.unknown().optional() }, { error: 'body must be a JSON object' }),
  hidParams: z.object({ hid: z.string().min(1).max(60) }),
};
export type ShiftGridInput = z.input<typeof shiftRequests.grid>;

/** A staff member as a client writes it: type own|agency (default own); any other value is refused (400), never read as own. */
export const staffFields = { name: text(60), type: json(z.enum(['own', 'agency'], { error: 'type must be own or agency' })).default('own') };
/** Request schemas of the staff and time clock routes. */
export const staffRequests = {
  create: createShape(staffFields),
  patch: patchShape(staffFields),
  params: z.object({ id: z.string().min(1).max(60) }),
  punchParams: z.object({ staffId: z.string().min(1).max(200).transform((v) => clip(v, 40)) }),
  /** dir in|out; anything else toggles from the current state. */
  punch: z.object({ dir: z.unknown().optional() }, { error: 'body must be a JSON object' }),
};
export type StaffCreate = z.input<typeof staffRequests.create>;
export type StaffPatch = z.input<typeof staffRequests.patch>;
export type PunchInput = z.input<typeof staffRequests.punch>;
