import { IdParam } from '../../../shared/api/contracts/agents-common';
import { TICKET_CATEGORIES, TICKET_PRIORITIES } from '../../../shared/api/contracts/agents-values';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { openTicket, ownTickets, readableTicket, reply, thread } from './support.service';
import { supportResponses } from '../../../shared/api/contracts/agents-support';
import { supportRequests } from '../../../shared/api/contracts/agents-support-requests';

/** Support tickets: any member opens them; the opener and operators read and reply. */
export function supportRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/support/tickets', response: supportResponses['GET /api/support/tickets'],
      auth: 'bearer',
      handler: async ({ caller }) => ({ tickets: await ownTickets(ctx, caller.userId), categories: [...TICKET_CATEGORIES], priorities: [...TICKET_PRIORITIES] }),
    }),
    route({
      method: 'post',
      path: '/api/support/tickets', response: supportResponses['POST /api/support/tickets'],
      auth: 'bearer',
      body: supportRequests['POST /api/support/tickets'].body,
      handler: ({ caller, body }) => openTicket(ctx, caller, body),
    }),
    route({
      method: 'get',
      path: '/api/support/tickets/:id', response: supportResponses['GET /api/support/tickets/:id'],
      auth: 'bearer',
      params: IdParam,
      handler: async ({ caller, params }) => thread(ctx, await readableTicket(ctx, caller, params.id)),
    }),
    route({
      method: 'post',
      path: '/api/support/tickets/:id/messages', response: supportResponses['POST /api/support/tickets/:id/messages'],
      auth: 'bearer',
      params: IdParam,
      body: supportRequests['POST /api/support/tickets/:id/messages'].body,
      handler: ({ caller, params, body }) => reply(ctx, caller, params.id, body.body),
    }),
  ];
}
