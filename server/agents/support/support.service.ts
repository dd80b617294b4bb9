import { notFound } from '../../core/errors';
import type { AgentsContext, Caller } from '../context';
import { newId } from '../ids';


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

export function presentTicket(t: TicketRow & { email?: string; message_count?: number }) {
  return {
    id: t.id,
    subject: t.subject,
    category: t.category,
    priority: t.priority,
    status: t.status,
    workspaceId: t.workspace_id,
    userId: t.user_id,
    ...(t.email !== undefined ? { email: t.email } : {}),
    ...(t.message_count !== undefined ? { messageCount: t.message_count } : {}),
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

const presentMessage = (m: MessageRow) => ({ id: m.id, author: m.author_role, authorId: m.author_id, body: m.body, created_at: iso(m.created_at) });

/** A ticket the caller may read: its opener, or an operator; anyone else gets 404 (existence not revealed). */
export function readableTicket(ctx: AgentsContext, caller: Caller, id: string): TicketRow {
  const t = ctx.legacyDb.prepare('SELECT * FROM support_tickets WHERE id = ?').get(id) as TicketRow | undefined;
  if (!t || (t.user_id !== caller.userId && !caller.admin)) throw notFound('ticket not found');
  return t;
}

export function thread(ctx: AgentsContext, t: TicketRow) {
  const messages = ctx.legacyDb.prepare('SELECT * FROM support_messages WHERE ticket_id = ? ORDER BY created_at, rowid').all(t.id) as MessageRow[];
  return { ticket: presentTicket(t), messages: messages.map(presentMessage) };
}

export function ownTickets(ctx: AgentsContext, userId: string) {
  const rows = ctx.legacyDb
    .prepare('SELECT t.*, (SELECT COUNT(*) FROM support_messages m WHERE m.ticket_id = t.id) AS message_count FROM support_tickets t WHERE t.user_id = ? ORDER BY t.updated_at DESC, t.id LIMIT 500')
    .all(userId) as (TicketRow & { message_count: number })[];
  return rows.map(presentTicket);
}

export function openTicket(ctx: AgentsContext, caller: Caller, input: { subject: string; message: string; category: string; priority: string }) {
  const now = Date.now();
  const id = newId('tkt');
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb
      .prepare("INSERT INTO support_tickets (id, workspace_id, user_id, subject, category, priority, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)")
      .run(id, caller.ws, caller.userId, input.subject, input.category, input.priority, now, now);
    ctx.legacyDb.prepare("INSERT INTO support_messages (id, ticket_id, author_id, author_role, body, created_at) VALUES (?, ?, ?, 'user', ?, ?)").run(newId('tmsg'), id, caller.userId, input.message, now);
  })();
  return thread(ctx, readableTicket(ctx, caller, id));
}

/**
 * A reply in the thread. The opener's reply (re)opens the ticket; an operator's marks it answered and
 * mails the opener. An operator replying to their own ticket counts as the opener.
 */
export async function reply(ctx: AgentsContext, caller: Caller, id: string, body: string) {
  const t = readableTicket(ctx, caller, id);
  const asOperator = t.user_id !== caller.userId;
  const now = Date.now();
  const mid = newId('tmsg');
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare('INSERT INTO support_messages (id, ticket_id, author_id, author_role, body, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(mid, t.id, caller.userId, asOperator ? 'operator' : 'user', body, now);
    ctx.legacyDb.prepare('UPDATE support_tickets SET status = ?, updated_at = ? WHERE id = ?').run(asOperator ? 'answered' : 'open', now, t.id);
  })();
  if (asOperator) {
    const opener = ctx.legacyDb.prepare('SELECT email FROM users WHERE id = ?').get(t.user_id) as { email: string } | undefined;
    if (opener) {
      try {
        await ctx.mailer.send({
          to: opener.email,
          subject: `Re: ${t.subject} [${t.id}]`,
          text: `Our support team replied to your ticket "${t.subject}":\n\n${body}\n\nReply in the app: ${ctx.config.appUrl}/support/${t.id}\n`,
        });
      } catch (err) {
        // The reply is saved either way; the opener sees it in the app.
        ctx.log(`support mail failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  const out = thread(ctx, readableTicket(ctx, caller, id));
  return { message: out.messages.find((m) => m.id === mid), ...out };
}
