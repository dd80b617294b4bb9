/** Request contracts of the agent platform's knowledge routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { AgentQuery } from './agents-common';
import { SOURCE_TYPES, sourceBody } from './agents-values';

/** Request schemas of knowledge/sources.routes.ts, by route. */
export const sourcesRequests = {
  'GET /api/sources': { query: AgentQuery.extend({ type: z.enum(SOURCE_TYPES).optional() }) },
  'POST /api/sources/social': { body: z.object({ url: z.string().trim().min(1, 'url is required').max(2_000), platform: z.string().trim().max(40).optional(), agentId: z.string().max(64).optional() }) },
  'POST /api/sources/retrain': { body: z.object({ agentId: z.string().max(64).optional() }) },
  'POST /api/sources': { body: sourceBody.extend({ agentId: z.string().max(64).optional() }) },
  'PATCH /api/sources/:id': { body: z.object({
        name: z.string().trim().max(200).optional(),
        content: z.string().max(5_000_000).optional(),
        question: z.string().max(4_000).optional(),
        answer: z.string().max(20_000).optional(),
      }) },
};
