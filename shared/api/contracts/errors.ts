/** The failure envelope and the generic record of back-office lists. */
import { z } from 'zod';
import { optStr } from '../primitives';

/** A row of any list the UI shows generically (back-office screens). */
export const AnyRecord = z.record(z.string(), z.unknown());
export type AnyRecord = z.infer<typeof AnyRecord>;

/** Failure envelope. */
export const ErrorBody = z.looseObject({
  ok: z.literal(false),
  error: z.string(),
  code: optStr,
  message: optStr,
  issues: z.unknown().optional(),
  errors: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

