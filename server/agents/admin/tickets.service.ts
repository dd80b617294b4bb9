import type { AgentsContext } from '../context';
import { operatorTicket, presentTicket, thread } from '../support/support.service';
import { allTickets, countTickets, updateTicket } from '../support/tickets.repository';

/** The operator's support queue across the platform. */

export async function ticketQueue(ctx: AgentsContext, status: string | undefined, limit: number, offset: number) {
  const [total, rows] = await Promise.all([countTickets(ctx.db, status), allTickets(ctx.db, { status, limit, offset })]);
  return { total, tickets: rows.map(presentTicket) };
}

export async function ticketThread(ctx: AgentsContext, id: string) {
  return thread(ctx, await operatorTicket(ctx, id));
}

/** Status, priority and category, each only when given; the thread afterwards. */
export async function editTicket(ctx: AgentsContext, id: string, patch: { status?: string; priority?: string; category?: string }) {
  const t = await operatorTicket(ctx, id);
  await updateTicket(ctx.db, t.id, patch, Date.now());
  return thread(ctx, await operatorTicket(ctx, t.id));
}
