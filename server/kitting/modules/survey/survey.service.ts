/** Customer surveys: responses, follow-ups and sent batches, with the rules the routes and the push check share. */
import { z } from 'zod';
import { clip, json } from '../../../../shared/fields';
import { collectionSchema, stamp, storedField } from '../../http/collection-schema';
import { badRequest } from '../../../core/errors';
import type { Doc } from '../../store/types';
import { surveyFollowupFields, surveyRequests, surveyResponseFields, surveyResponses } from '../../../../shared/api/contracts/workspace';

export const SURVEY_RESPONSES = 'surveyResponses';
export const SURVEY = 'survey';
export const FOLLOWUPS_ID = 'followups';
export const SENT_ID = 'sent';

const responseFields = surveyResponseFields;
const followupFields = surveyFollowupFields;
export const { response: responseBody, followup: followupBody } = surveyRequests;

export const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
export const badDate = () => badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
/** A date as the survey routes store it: their text rule, then a real YYYY-MM-DD (else 400). */
const storedDate = (field: typeof responseFields.date) => storedField(field, isDate, 'date must be a real YYYY-MM-DD');
/** The key of a follow-up: a response id as the follow-up route clips it. */
const followupKey = z.string().refine((k) => k !== '' && clip(k, 60) === k, 'a response id of at most 60 characters');

/**
 * Pushed survey responses pass the response route's field rules (a score out of range, an unknown kind or a
 * clipped text is refused); ts is the server's stamp.
 */
export const surveyResponseSchema = collectionSchema(SURVEY_RESPONSES, { ...responseFields, src: storedField(responseFields.src), date: storedDate(responseFields.date) }, { ts: stamp() });

/**
 * The survey records: the follow-up map (each entry as the follow-up route stores it) and the sent counter
 * (a whole number the send route only ever raises by 1..100,000).
 */
export const surveySchema = collectionSchema(
  SURVEY,
  {},
  {
    map: json(z.record(followupKey, z.strictObject({ action: followupFields.action.zod, note: followupFields.note.zod, date: storedDate(followupFields.date).zod }))),
    count: json(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)),
  },
);

export function batchOf(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? Math.min(n, 100_000) : 1;
}

export const followupsOf = (d: Doc | null) => ((d?.map as Record<string, unknown> | undefined) ?? {});
export const sentOf = (d: Doc | null) => (typeof d?.count === 'number' ? d.count : 0);
