/** Request contracts of the agent platform's webhooks routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { EVENT_NAMES } from './agents-values';

/** Request schemas of webhooks/webhooks.routes.ts, by route. */
export const webhooksRequests = {
  'GET /api/webhooks/deliveries': { query: z.object({ agent: z.string().max(64).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }) },
  'POST /api/webhooks': { body: z.object({
        url: z.string().trim().min(1).max(2000),
        events: z.array(z.enum(EVENT_NAMES)).min(1, 'events must name at least one event').max(EVENT_NAMES.length),
        agentId: z.string().max(64).optional(),
      }) },
};
