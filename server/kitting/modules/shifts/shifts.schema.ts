import { z } from 'zod';
import { collectionSchema, derivedInt, fixedKeys, stamp } from '../../http/collection-schema';
import { Field } from '../../../../shared/fields';
import { DRAFT_ID, REASON_APPLY, REASON_RESTORE, ROSTER_ID, SHIFT_HISTORY, SHIFT_VALUES, SHIFTS } from './shifts.service';

/**
 * What a bench may push into the roster collections: grids and clocks as readGrid/readClock store them
 * (7 known shift values per staff row, HH:MM times, whole non-negative units), the draft's diff, and
 * roster snapshots numbered, stamped and labelled as the apply and restore routes make them.
 */
const staffKey = z.string().min(1).max(40);
const shift = z.enum(SHIFT_VALUES);
const grid = z.record(staffKey, z.array(shift).length(7));
const time = z.string().regex(/^\d{2}:\d{2}$/, 'must be HH:MM').nullable();
const clock = z.record(staffKey, z.strictObject({ in: time, out: time, status: z.string().max(20), units: z.number().int().nonnegative() }));
const diff = z.array(z.strictObject({ staffId: staffKey, day: z.number().int().min(0).max(6), from: shift.nullable(), to: shift }));

const shiftSchema = fixedKeys(
  collectionSchema(SHIFTS, { grid: new Field(grid), clock: new Field(clock) }, { diff: new Field(diff), ts: stamp(), status: new Field(z.literal('unconfirmed')) }),
  [ROSTER_ID, DRAFT_ID],
);

const shiftHistorySchema = collectionSchema(
  SHIFT_HISTORY,
  {},
  {
    seq: derivedInt(1),
    ts: stamp(),
    reason: new Field(z.enum([REASON_APPLY, REASON_RESTORE])),
    grid: new Field(grid),
  },
);

export const shiftSchemas = [shiftSchema, shiftHistorySchema];
