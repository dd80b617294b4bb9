import { z } from 'zod';
import { text } from '../../../../shared/fields';
import { crudRoutes, randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { declareSeries, issueNumber } from '../../../core/store/series';
import type { Tx } from '../../../core/store/types';
import { declareLookup } from '../../../core/store/lookups';
import { collectionSchema, derivedText, stamp } from '../../../core/http/collection-schema';

export const TICKETS = 'tickets';
export const TICKET_MESSAGES = 'ticketMessages';
/** The first generated ticket is TK-0673. */
export const FIRST_TICKET = 673;

export const ticketId = (n: number) => `TK-0${n}`;

/** TK-0673, TK-0674, …; a ticket's messages name it by id. */
export const TICKET_NUMBERS = declareSeries({
  name: 'ticket',
  period: 'none',
  start: FIRST_TICKET,
  coll: TICKETS,
  field: 'id',
  keyed: true,
  format: ticketId,
  pattern: /^TK-0(?<n>\d+)$/,
  reserve: 200,
  references: [{ coll: TICKET_MESSAGES, field: 'ticketId' }],
});
export const TICKET_SERIES = TICKET_NUMBERS.name;

/** `customer` is accepted as an alias of `cust` on input. */
function aliasCustomer(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if ((b.cust === undefined || b.cust === null) && b.customer !== undefined) return { ...b, cust: b.customer };
  }
  return body;
}

/** A ticket's messages are found by its id (never by reading every message). */
const MESSAGES_OF_TICKET = declareLookup(TICKET_MESSAGES, 'ticketId');

async function removeMessages(tx: Tx, id: string): Promise<void> {
  for (const m of await tx.find(MESSAGES_OF_TICKET.coll, MESSAGES_OF_TICKET.field, id)) await tx.remove(TICKET_MESSAGES, String(m.id));
}

const ticketFields = {
  cust: text(120).default('—'),
  kind: text(60).default('問合せ'),
  subject: text(300),
  owner: text(60).default('—'),
  sla: text(60).default('4h 00m'),
  status: text(40).default('受付'),
  priority: text(40),
};
/** Tickets opened from a customer portal also keep where they came from and the contact. */
export const ticketSchema = collectionSchema(TICKETS, ticketFields, {
  created: stamp(),
  source: derivedText(40),
  contactName: derivedText(120),
  contactEmail: derivedText(200),
});
const messageFields = { ticketId: text(200), from: text(60), text: text(2000) };
export const ticketMessageSchema = collectionSchema(TICKET_MESSAGES, messageFields, { ts: stamp() });

const ticketCrud = crudRoutes({
  scope: 'support',
  coll: TICKETS,
  listPath: '/api/tickets',
  listKey: 'tickets',
  itemPath: '/api/ticket',
  itemKey: 'ticket',
  notFoundError: 'ticket not found',
  preprocess: aliasCustomer,
  fields: ticketFields,
  newId: async (tx) => (await issueNumber(tx, TICKET_NUMBERS)).value,
  onCreate: () => ({ created: Date.now() }),
  deleteResponse: () => ({}),
  onDelete: removeMessages,
});

const idParams = z.object({ id: z.string().min(1).max(200) });
const messageBody = z.object({ from: messageFields.from.zod.nullish(), text: z.unknown().optional() });

export const ticketRoutes = [
  ...ticketCrud,
  defineRoute({
    method: 'get',
    path: '/api/ticket/:id/messages',
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
    auth: 'support:edit',
    params: idParams,
    body: messageBody,
    handler: async ({ app, ws, params, body }) => {
      const parsed = messageFields.text.zod.safeParse(body.text);
      const msgText = parsed.success ? parsed.data : '';
      if (msgText.trim() === '') throw badRequest('text required', { message: '本文を入力してください' });
      const message = await app.store.transact(ws, async (tx) => {
        if (!(await tx.get(TICKETS, params.id))) throw notFound('ticket not found');
        const id = randomId('msg-');
        return tx.put(TICKET_MESSAGES, id, { id, ticketId: params.id, from: body.from || '—', text: msgText, ts: Date.now() });
      });
      return { message };
    },
  }),
];
