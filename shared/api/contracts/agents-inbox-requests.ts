/** Request contracts of the agent platform's inbox routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { AgentQuery } from './agents-common';
import { HANDOFF_ACTIONS } from './agents-values';

export const cidParam = z.object({ cid: z.string().max(64) });

export const feedback = z.union([z.enum(['up', 'down']), z.null()], 'feedback must be up, down or null');

/** Request schemas of inbox/conversations.routes.ts, by route. */
export const conversationsRequests = {
  'GET /api/conversations': { query: AgentQuery.extend({ limit: z.coerce.number().int().catch(50).optional(), channel: z.string().max(40).optional() }) },
  'POST /api/conversations/:cid/reply': { body: z.object({ text: z.string().trim().min(1, 'text is required').max(4_000) }) },
  'PATCH /api/conversations/:cid/handoff': { body: z.object({ action: z.enum(Object.keys(HANDOFF_ACTIONS) as [keyof typeof HANDOFF_ACTIONS], 'action must be takeover, resolve or bot') }) },
  'PATCH /api/conversations/:cid/messages/:mid': { params: z.object({ cid: z.string().max(64), mid: z.string().max(64) }), body: z.object({ feedback }) },
  'POST /api/conversations/:cid/messages/:mid/correct': { params: z.object({ cid: z.string().max(64), mid: z.string().max(64) }), body: z.object({ answer: z.string().trim().min(1, 'answer is required').max(20_000) }) },
  'PATCH /api/conversations/:cid': { body: z.object({ feedback }) },
};
