/** Response contracts of the agent platform's support routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import { TicketRecord } from './agents-records';

/** Success bodies of support/support.routes.ts, by route. */
export const supportResponses = {
  'GET /api/support/tickets': z.looseObject({
    tickets: z.array(TicketRecord),
    categories: z.array(z.string()),
    priorities: z.array(z.string()),
  }),
  'GET /api/support/tickets/:id': z.looseObject({
    ticket: TicketRecord,
    messages: z.array(
      z.looseObject({ id: z.string(), author: z.string(), authorId: z.string(), body: z.string(), created_at: z.string() }),
    ),
  }),
  'POST /api/support/tickets': z.looseObject({
    ticket: TicketRecord,
    messages: z.array(
      z.looseObject({ id: z.string(), author: z.string(), authorId: z.string(), body: z.string(), created_at: z.string() }),
    ),
  }),
  'POST /api/support/tickets/:id/messages': z.looseObject({
    message: z.looseObject({
      id: z.string(),
      author: z.string(),
      authorId: z.string(),
      body: z.string(),
      created_at: z.string(),
    }),
    ticket: TicketRecord,
    messages: z.array(
      z.looseObject({ id: z.string(), author: z.string(), authorId: z.string(), body: z.string(), created_at: z.string() }),
    ),
  }),
};
