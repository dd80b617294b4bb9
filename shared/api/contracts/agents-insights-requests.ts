/** Request contracts of the agent platform's insights routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';

/** Request schemas of insights/insights.routes.ts, by route. */
export const insightsRequests = {
  'GET /api/assistant/analysis': { query: z.object({ lang: z.string().max(10).optional() }) },
  'POST /api/assistant/chat': { body: z.object({
        message: z.string().trim().min(1, 'message is required').max(20_000),
        history: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(20_000) })).max(40).catch([]).default([]),
        lang: z.string().max(10).optional(),
        attachments: z.array(z.unknown()).max(10).default([]),
      }) },
};
