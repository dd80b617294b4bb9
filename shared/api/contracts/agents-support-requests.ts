/** Request contracts of the agent platform's support routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { TICKET_CATEGORIES, TICKET_PRIORITIES } from './agents-values';

/** Request schemas of support/support.routes.ts, by route. */
export const supportRequests = {
  'POST /api/support/tickets': { body: z.object({
        subject: z.string().trim().min(1, 'must not be empty').max(200, 'subject must be at most 200 characters'),
        message: z.string().trim().min(1, 'must not be empty').max(10_000, 'message must be at most 10000 characters'),
        category: z.enum(TICKET_CATEGORIES, `category must be one of ${TICKET_CATEGORIES.join(', ')}`).default('general'),
        priority: z.enum(TICKET_PRIORITIES, `priority must be one of ${TICKET_PRIORITIES.join(', ')}`).default('normal'),
      }) },
  'POST /api/support/tickets/:id/messages': { body: z.object({ body: z.string().trim().min(1, 'must not be empty').max(10_000, 'body must be at most 10000 characters') }) },
};
