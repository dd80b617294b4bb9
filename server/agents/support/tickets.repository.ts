import { countAll } from '../sql';
import type { AgentsDb } from '../schema';

/**
 * Support tickets and their messages. A member reads only the tickets they opened (every member query is
 * scoped by the opener); the operator queries (`…ForOperator`, `allTickets`) read across the platform.
 */

const TICKET_COLUMNS = ['id', 'workspace_id', 'user_id', 'subject', 'category', 'priority', 'status', 'created_at', 'updated_at'] as const;
const MESSAGE_COLUMNS = ['id', 'ticket_id', 'author_id', 'author_role', 'body', 'created_at'] as const;

type TicketStatus = 'open' | 'pending' | 'answered' | 'closed';

export async function ticketOfUser(db: AgentsDb, id: string, userId: string) {
  return db.selectFrom('support_tickets').select(TICKET_COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function ticketForOperator(db: AgentsDb, id: string) {
  return db.selectFrom('support_tickets').select(TICKET_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The thread in the order it was written. */
export async function messagesOf(db: AgentsDb, ticketId: string) {
  return db.selectFrom('support_messages').select(MESSAGE_COLUMNS).where('ticket_id', '=', ticketId).orderBy('created_at').orderBy('rowid').execute();
}

/** The opener's tickets, last changed first, with their message counts (at most 500). */
export async function ticketsOfUser(db: AgentsDb, userId: string) {
  return db
    .selectFrom('support_tickets as t')
    .select(TICKET_COLUMNS.map((c) => `t.${c}` as const))
    .select((eb) => eb.selectFrom('support_messages as m').select(countAll().as('n')).whereRef('m.ticket_id', '=', 't.id').as('message_count'))
    .where('t.user_id', '=', userId)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id')
    .limit(500)
    .execute();
}

export async function insertTicket(
  db: AgentsDb,
  t: { id: string; workspace_id: string; user_id: string; subject: string; category: string; priority: string; now: number },
): Promise<void> {
  await db
    .insertInto('support_tickets')
    .values({ id: t.id, workspace_id: t.workspace_id, user_id: t.user_id, subject: t.subject, category: t.category, priority: t.priority, status: 'open', created_at: t.now, updated_at: t.now })
    .execute();
}

export async function insertMessage(db: AgentsDb, m: { id: string; ticket_id: string; author_id: string; author_role: 'user' | 'operator'; body: string; created_at: number }): Promise<void> {
  await db.insertInto('support_messages').values(m).execute();
}

export async function setTicketStatus(db: AgentsDb, id: string, status: TicketStatus, now: number): Promise<void> {
  await db.updateTable('support_tickets').set({ status, updated_at: now }).where('id', '=', id).execute();
}

/** Changes only the fields given; false when the ticket does not exist. */
export async function updateTicket(db: AgentsDb, id: string, patch: { status?: string; priority?: string; category?: string }, now: number): Promise<boolean> {
  const r = await db
    .updateTable('support_tickets')
    .set({
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.priority !== undefined ? { priority: patch.priority } : {}),
      ...(patch.category !== undefined ? { category: patch.category } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function countTickets(db: AgentsDb, status?: string): Promise<number> {
  let q = db.selectFrom('support_tickets').select(countAll().as('n'));
  if (status) q = q.where('status', '=', status);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Every ticket for the operator queue: open, pending, answered, then closed; within a status urgent first,
 * then the last changed. Each with the opener's email and the message count.
 */
export async function allTickets(db: AgentsDb, opts: { status?: string; limit: number; offset: number }) {
  let q = db
    .selectFrom('support_tickets as t')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .select(TICKET_COLUMNS.map((c) => `t.${c}` as const))
    .select('u.email')
    .select((eb) => eb.selectFrom('support_messages as m').select(countAll().as('n')).whereRef('m.ticket_id', '=', 't.id').as('message_count'));
  if (opts.status) q = q.where('t.status', '=', opts.status);
  return q
    .orderBy((eb) => eb.case().when('t.status', '=', 'open').then(0).when('t.status', '=', 'pending').then(1).when('t.status', '=', 'answered').then(2).else(3).end())
    .orderBy((eb) => eb.case().when('t.priority', '=', 'urgent').then(0).when('t.priority', '=', 'high').then(1).when('t.priority', '=', 'normal').then(2).else(3).end())
    .orderBy('t.updated_at', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
}

/** Where a reply to the opener is mailed. */
export async function openerEmail(db: AgentsDb, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
}
