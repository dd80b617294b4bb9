import { z } from 'zod';
import { clamp, clip, createShape, json, num, oneOf, text } from '../../../../shared/fields';
import { jstDate } from '../../../../shared/dates';
import { randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import type { Doc } from '../../../core/store/types';

export const SURVEY_RESPONSES = 'surveyResponses';
export const SURVEY = 'survey';
export const FOLLOWUPS_ID = 'followups';
export const SENT_ID = 'sent';

const responseBody = createShape({
  id: text(60).optional(),
  date: text(10).optional(),
  cust: text(120),
  src: text(40).default('メール'),
  k: oneOf(['NPS', 'CSAT'], 'NPS'),
  // a score that is not a number is refused (400), never read as 0 or 5
  nps: json(num().zod.transform((n) => clamp(Math.round(n), 0, 10))).optional(),
  csat: json(num().zod.transform((n) => clamp(Math.round(n), 1, 5))).optional(),
  comment: text(1000),
});

const followupBody = createShape({ action: text(60), note: text(600), date: text(10).optional() });

const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const badDate = () => badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });

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
    auth: 'support:edit',
    body: z.object({ batch: z.unknown().optional() }, { error: 'body must be a JSON object' }),
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
    auth: 'support:edit',
    body: responseBody,
    handler: async ({ app, ws, body }) => {
      const date = body.date || jstDate();
      if (!isDate(date)) throw badDate();
      const response = await app.store.transact(ws, async (tx) => {
        const id = body.id || randomId('sv-');
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
    auth: 'support:edit',
    params: z.object({ id: z.string().min(1).max(200).transform((v) => clip(v, 60)) }),
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
