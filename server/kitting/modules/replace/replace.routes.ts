import { defineRoute } from '../../http/define-route';
import { badRequest } from '../../../core/errors';
import { replaceRequests, replaceResponses } from '../../../../shared/api/contracts/workspace';
import { REPLACE, PROPOSALS_ID, mapOf } from './replace.service';

export const replaceRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/replace/proposals',
    response: replaceResponses.proposals,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ proposals: mapOf(await app.store.get(ws, REPLACE, PROPOSALS_ID)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/replace/proposal',
    response: replaceResponses.propose,
    auth: 'ops:edit',
    body: replaceRequests.propose,
    handler: async ({ app, ws, body }) => {
      const cust = (body.cust ?? '').trim();
      if (!cust) throw badRequest('cust required', { message: '顧客名(cust)を指定してください' });
      const at = new Date().toISOString();
      const proposals = await app.store.transact(ws, async (tx) => {
        const map = { ...mapOf(await tx.get(REPLACE, PROPOSALS_ID)), [cust]: at };
        await tx.put(REPLACE, PROPOSALS_ID, { id: PROPOSALS_ID, map });
        return map;
      });
      return { cust, at, proposals: mapOf({ map: proposals }) };
    },
  }),
];
