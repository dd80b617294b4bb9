import { jstDate } from '../../../../shared/dates';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import type { Doc } from '../../store/types';
import { surveyRequests, surveyResponses } from '../../../../shared/api/contracts/workspace';
import { SURVEY_RESPONSES, SURVEY, FOLLOWUPS_ID, SENT_ID, isDate, badDate, batchOf, followupsOf, sentOf, responseBody, followupBody } from './survey.service';

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
