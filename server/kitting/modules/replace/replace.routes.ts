import { z } from 'zod';
import { text } from '../../../../shared/fields';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest } from '../../../core/errors';

export const REPLACE = 'replace';
export const PROPOSALS_ID = 'proposals';

const mapOf = (d: Record<string, unknown> | null) => ((d?.map as Record<string, string> | undefined) ?? {});

export const replaceRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/replace/proposals',
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ proposals: mapOf(await app.store.get(ws, REPLACE, PROPOSALS_ID)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/replace/proposal',
    auth: 'ops:edit',
    body: z.object({ cust: text(120).zod.nullish() }, { error: 'body must be a JSON object' }),
    handler: async ({ app, ws, body }) => {
      const cust = (body.cust ?? '').trim();
      if (!cust) throw badRequest('cust required', { message: '顧客名(cust)を指定してください' });
      const at = new Date().toISOString();
      const proposals = await app.store.transact(ws, async (tx) => {
        const map = { ...mapOf(await tx.get(REPLACE, PROPOSALS_ID)), [cust]: at };
        await tx.put(REPLACE, PROPOSALS_ID, { id: PROPOSALS_ID, map });
        return map;
      });
      return { cust, at, proposals };
    },
  }),
];
