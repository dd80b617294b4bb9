import { notFound } from '../../core/errors';
import type { AgentsContext, Caller } from '../context';
import { newId } from '../ids';
import { insertMessage, insertTicket, messagesOf, openerEmail, setTicketStatus, ticketForOperator, ticketOfUser, ticketsOfUser } from './tickets.repository';

export interface TicketRow {
  id: string;
  workspace_id: string;
  user_id: string;
  subject: string;
  category: string;
  priority: string;
  status: string;
  created_at: number;
  updated_at: number;
}

interface MessageRow {
  id: string;
  ticket_id: string;
  author_id: string | null;
  author_role: string;
  body: string;
  created_at: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function presentTicket(t: TicketRow & { email?: string | null; message_count?: number | string | null }) {
  return {
    id: t.id,
    subject: t.subject,
    category: t.category,
    priority: t.priority,
    status: t.status,
    workspaceId: t.workspace_id,
    userId: t.user_id,
    ...(t.email !== undefined ? { email: t.email } : {}),
    ...(t.message_count !== undefined ? { messageCount: Number(t.message_count ?? 0) } : {}),
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

const presentMessage = (m: MessageRow) => ({ id: m.id, author: m.author_role, authorId: m.author_id, body: m.body, created_at: iso(m.created_at) });

/** A ticket the caller may read: its opener, or an operator; anyone else gets 404 (existence not revealed). */
export async function readableTicket(ctx: AgentsContext, caller: Caller, id: string): Promise<TicketRow> {
  const t = caller.admin ? await ticketForOperator(ctx.db, id) : await ticketOfUser(ctx.db, id, caller.userId);
  if (!t) throw notFound('ticket not found');
  return t;
}

/** Any ticket, for the operator queue. */
export async function operatorTicket(ctx: AgentsContext, id: string): Promise<TicketRow> {
  const t = await ticketForOperator(ctx.db, id);
  if (!t) throw notFound('ticket not found');
  return t;
}

export async function thread(ctx: AgentsContext, t: TicketRow) {
  const messages = await messagesOf(ctx.db, t.id);
  return { ticket: presentTicket(t), messages: messages.map(presentMessage) };
}

export async function ownTickets(ctx: AgentsContext, userId: string) {
  return (await ticketsOfUser(ctx.db, userId)).map(presentTicket);
}

export async function openTicket(ctx: AgentsContext, caller: Caller, input: { subject: string; message: string; category: string; priority: string }) {
  const now = Date.now();
  const id = newId('tkt');
  await ctx.db.transaction().execute(async (tx) => {
    await insertTicket(tx, { id, workspace_id: caller.ws, user_id: caller.userId, subject: input.subject, category: input.category, priority: input.priority, now });
    await insertMessage(tx, { id: newId('tmsg'), ticket_id: id, author_id: caller.userId, author_role: 'user', body: input.message, created_at: now });
  });
  return thread(ctx, await readableTicket(ctx, caller, id));
}

/**
 * A reply in the thread. The opener's reply (re)opens the ticket; an operator's marks it answered and
 * mails the opener. An operator replying to their own ticket counts as the opener.
 */
export async function reply(ctx: AgentsContext, caller: Caller, id: string, body: string) {
  const t = await readableTicket(ctx, caller, id);
  const asOperator = t.user_id !== caller.userId;
  const now = Date.now();
  const mid = newId('tmsg');
  await ctx.db.transaction().execute(async (tx) => {
    await insertMessage(tx, { id: mid, ticket_id: t.id, author_id: caller.userId, author_role: asOperator ? 'operator' : 'user', body, created_at: now });
    await setTicketStatus(tx, t.id, asOperator ? 'answered' : 'open', now);
  });
  if (asOperator) {
    const email = await openerEmail(ctx.db, t.user_id);
    if (email) {
      try {
        await ctx.mailer.send({
          to: email,
          subject: `Re: ${t.subject} [${t.id}]`,
          text: `Our support team replied to your ticket "${t.subject}":\n\n${body}\n\nReply in the app: ${ctx.config.appUrl}/support/${t.id}\n`,
        });
      } catch (err) {
        // The reply is saved either way; the opener sees it in the app.
        ctx.log(`support mail failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  const out = await thread(ctx, await readableTicket(ctx, caller, id));
  return { message: out.messages.find((m) => m.id === mid), ...out };
}
