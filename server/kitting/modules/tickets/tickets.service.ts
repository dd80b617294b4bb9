import { declareSeries } from '../../store/series';
import type { Tx } from '../../store/types';
import { declareLookup } from '../../store/lookups';

export const TICKETS = 'tickets';
export const TICKET_MESSAGES = 'ticketMessages';
/** The first generated ticket is TK-0673. */
const FIRST_TICKET = 673;

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

/** A ticket's messages are found by its id (never by reading every message). */
export const MESSAGES_OF_TICKET = declareLookup(TICKET_MESSAGES, 'ticketId');

export async function removeMessages(tx: Tx, id: string): Promise<void> {
  for (const m of await tx.find(MESSAGES_OF_TICKET.coll, MESSAGES_OF_TICKET.field, id)) await tx.remove(TICKET_MESSAGES, String(m.id));
}
