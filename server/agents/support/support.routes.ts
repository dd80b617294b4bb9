import { z } from 'zod';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { openTicket, ownTickets, readableTicket, reply, thread, TICKET_CATEGORIES, TICKET_PRIORITIES } from './support.service';
import { supportResponses } from '../../../shared/api/contracts/agents-support';

const idParam = z.object({ id: z.string().max(64) });

/** Support tickets: any member opens them; the opener and operators read and reply. */
export function supportRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/support/tickets', response: supportResponses['GET /api/support/tickets'],
      auth: 'bearer',
      handler: ({ caller }) => ({ tickets: ownTickets(ctx, caller.userId), categories: [...TICKET_CATEGORIES], priorities: [...TICKET_PRIORITIES] }),
    }),
    route({
      method: 'post',
      path: '/api/support/tickets', response: supportResponses['POST /api/support/tickets'],
      auth: 'bearer',
      body: z.object({
        subject: z.string().trim().min(1, 'must not be empty').max(200, 'subject must be at most 200 characters'),
        message: z.string().trim().min(1, 'must not be empty').max(10_000, 'message must be at most 10000 characters'),
        category: z.enum(TICKET_CATEGORIES, `category must be one of ${TICKET_CATEGORIES.join(', ')}`).default('general'),
        priority: z.enum(TICKET_PRIORITIES, `priority must be one of ${TICKET_PRIORITIES.join(', ')}`).default('normal'),
      }),
      handler: ({ caller, body }) => openTicket(ctx, caller, body),
    }),
    route({
      method: 'get',
      path: '/api/support/tickets/:id', response: supportResponses['GET /api/support/tickets/:id'],
      auth: 'bearer',
      params: idParam,
      handler: ({ caller, params }) => thread(ctx, readableTicket(ctx, caller, params.id)),
    }),
    route({
      method: 'post',
      path: '/api/support/tickets/:id/messages', response: supportResponses['POST /api/support/tickets/:id/messages'],
      auth: 'bearer',
      params: idParam,
      body: z.object({ body: z.string().trim().min(1, 'must not be empty').max(10_000, 'body must be at most 10000 characters') }),
      handler: ({ caller, params, body }) => reply(ctx, caller, params.id, body.body),
    }),
  ];
}
