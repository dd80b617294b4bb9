import { crudRoutes } from '../../http/crud';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import { collectionSchema, derivedText, stamp } from '../../http/collection-schema';
import { ticketFields, ticketMessageFields, ticketRequests, ticketResponses } from '../../../../shared/api/contracts/work';
import { MESSAGES_OF_TICKET, removeMessages, TICKET_MESSAGES, TICKET_NUMBERS, TICKETS } from './tickets.service';

/** Tickets opened from a customer portal also keep where they came from and the contact. */
export const ticketSchema = collectionSchema(TICKETS, ticketFields, {
  created: stamp(),
  source: derivedText(40),
  contactName: derivedText(120),
  contactEmail: derivedText(200),
});
export const ticketMessageSchema = collectionSchema(TICKET_MESSAGES, ticketMessageFields, { ts: stamp() });

const ticketCrud = crudRoutes({
  scope: 'support',
  coll: TICKETS,
  listPath: '/api/tickets',
  listKey: 'tickets',
  itemPath: '/api/ticket',
  itemKey: 'ticket',
  responses: ticketResponses,
  notFoundError: 'ticket not found',
  requests: ticketRequests,
  fields: ticketFields,
  newId: async (tx) => (await issueNumber(tx, TICKET_NUMBERS)).value,
  onCreate: () => ({ created: Date.now() }),
  deleteResponse: () => ({}),
  onDelete: removeMessages,
});

const { params: idParams, message: messageBody } = ticketRequests;

export const ticketRoutes = [
  ...ticketCrud,
  defineRoute({
    method: 'get',
    path: '/api/ticket/:id/messages',
    response: ticketResponses.messages,
    auth: 'support:view',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      if (!(await app.store.get(ws, TICKETS, params.id))) throw notFound('ticket not found');
      return { messages: await app.store.find(ws, MESSAGES_OF_TICKET.coll, MESSAGES_OF_TICKET.field, params.id) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/ticket/:id/message',
    response: ticketResponses.message,
    auth: 'support:edit',
    params: idParams,
    body: messageBody,
    handler: async ({ app, ws, params, body }) => {
      const parsed = ticketMessageFields.text.zod.safeParse(body.text);
      const msgText = parsed.success ? parsed.data : '';
      if (msgText.trim() === '') throw badRequest('text required', { message: '本文を入力してください' });
      const message = await app.store.transact(ws, async (tx) => {
        if (!(await tx.get(TICKETS, params.id))) throw notFound('ticket not found');
        const id = randomKey('msg-', 4);
        return tx.put(TICKET_MESSAGES, id, { id, ticketId: params.id, from: body.from || '—', text: msgText, ts: Date.now() });
      });
      return { message };
    },
  }),
];
