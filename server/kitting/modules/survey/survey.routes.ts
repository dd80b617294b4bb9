import { z } from 'zod';
import { clip, json } from '../../../../shared/fields';
import { jstDate } from '../../../../shared/dates';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../../core/http/define-route';
import { collectionSchema, stamp, storedField } from '../../../core/http/collection-schema';
import { badRequest, notFound } from '../../../core/errors';
import type { Doc } from '../../../core/store/types';
import { surveyFollowupFields, surveyRequests, surveyResponseFields, surveyResponses } from '../../../../shared/api/contracts/workspace';

export const SURVEY_RESPONSES = 'surveyResponses';
export const SURVEY = 'survey';
export const FOLLOWUPS_ID = 'followups';
export const SENT_ID = 'sent';

const responseFields = surveyResponseFields;
const followupFields = surveyFollowupFields;
const { response: responseBody, followup: followupBody } = surveyRequests;

const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const badDate = () => badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
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

function batchOf(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? Math.min(n, 100_000) : 1;
}

const followupsOf = (d: Doc | null) => ((d?.map as Record<string, unknown> | undefined) ?? {});
const sentOf = (d: Doc | null) => (typeof d?.count === 'number' ? d.count : 0);

export const surveyRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/survey',
    response: surveyResponses.view,
    auth: 'support:view',
    handler: async ({ app, ws }) => ({
      responses: (await app.store.list(ws, SURVEY_RESPONSES)).sort((a, b) => String(b.date).localeCompare(String(a.date))),
      followups: followupsOf(await app.store.get(ws, SURVEY, FOLLOWUPS_ID)),
      sent: sentOf(await app.store.get(ws, SURVEY, SENT_ID)),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/survey/send',
    response: surveyResponses.send,
    auth: 'support:edit',
    body: surveyRequests.send,
    handler: async ({ app, ws, body }) => {
      const batch = batchOf(body.batch);
      const sent = await app.store.transact(ws, async (tx) => {
        const next = sentOf(await tx.get(SURVEY, SENT_ID)) + batch;
        await tx.put(SURVEY, SENT_ID, { id: SENT_ID, count: next });
        return next;
      });
      return { sent };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/survey/response',
    response: surveyResponses.response,
    auth: 'support:edit',
    body: responseBody,
    handler: async ({ app, ws, body }) => {
      const date = body.date || jstDate();
      if (!isDate(date)) throw badDate();
      const response = await app.store.transact(ws, async (tx) => {
        const id = body.id || randomKey('sv-', 4);
        const prev = await tx.get(SURVEY_RESPONSES, id);
        const doc: Doc = { ...(prev ?? {}), id, date, cust: body.cust, src: body.src, k: body.k, comment: body.comment, ts: Date.now() };
        if (body.nps !== undefined) doc.nps = body.nps;
        if (body.csat !== undefined) doc.csat = body.csat;
        if (doc.k === 'NPS' && doc.nps === undefined) throw badRequest('nps required', { message: 'NPS(0〜10)を指定してください' });
        if (doc.k === 'CSAT' && doc.csat === undefined) throw badRequest('csat required', { message: '満足度(csat 1〜5)を指定してください' });
        return tx.put(SURVEY_RESPONSES, id, doc);
      });
      return { response };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/survey/followup/:id',
    response: surveyResponses.followup,
    auth: 'support:edit',
    params: surveyRequests.followupParams,
    body: followupBody,
    handler: async ({ app, ws, params, body }) => {
      const date = body.date || jstDate();
      if (!isDate(date)) throw badDate();
      const followup = { action: body.action, note: body.note, date };
      await app.store.transact(ws, async (tx) => {
        if (!(await tx.get(SURVEY_RESPONSES, params.id))) throw notFound('response not found');
        const map = { ...followupsOf(await tx.get(SURVEY, FOLLOWUPS_ID)), [params.id]: followup };
        await tx.put(SURVEY, FOLLOWUPS_ID, { id: FOLLOWUPS_ID, map });
      });
      return { followup };
    },
  }),
];
