import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import type { AgentRow } from '../agents/agents.service';
import { saveCaptured } from '../chat/capture';
import { appendLeadNote, contactByKey, insertContact, insertLead } from '../chat/chat.repository';
import { recordEvent } from '../events';
import { newId } from '../ids';
import { conversationHandoff, lastMessageId, lastSeqAt, messageSeq, operatorMessagesAfter } from './public.repository';

export interface WidgetLead {
  conversationId?: string | null;
  email?: string;
  phone?: string;
  name?: string;
  note?: string;
}

/** A lead the widget's form left: merged into the conversation's contact and lead when it names one, else a new lead (and contact). */
export async function widgetLead(ctx: AgentsContext, agent: AgentRow, body: WidgetLead): Promise<string> {
  if (!body.email && !body.phone) throw badRequest('email or phone is required');
  const ws = agent.workspace_id;
  const cid = body.conversationId ?? null;
  if (cid && !(await conversationHandoff(ctx.db, agent.id, cid))) throw notFound('conversation not found');
  return ctx.db.transaction().execute(async (tx) => {
    if (cid) {
      const r = await saveCaptured(tx, ws, agent.id, cid, { email: body.email || undefined, phone: body.phone || undefined, name: body.name || undefined });
      if (body.note) await appendLeadNote(tx, ws, r.leadId, body.note);
      return r.leadId;
    }
    const now = Date.now();
    const id = newId('ld');
    await insertLead(tx, {
      id, workspace_id: ws, agent_id: agent.id, name: body.name ?? '', email: body.email ?? '', phone: body.phone ?? '', notes: body.note ?? '',
      status: 'new', score: (body.email ? 40 : 0) + (body.phone ? 30 : 0) + (body.name ? 10 : 0), source: 'widget', created_at: now, updated_at: now,
    });
    const key = body.email ? { column: 'email' as const, value: body.email } : { column: 'phone' as const, value: body.phone ?? '' };
    if (!(await contactByKey(tx, ws, key))) {
      await insertContact(tx, { id: newId('ct'), workspace_id: ws, agent_id: agent.id, email: body.email ?? '', name: body.name ?? '', phone: body.phone ?? '', created_at: now });
    }
    await recordEvent(tx, ws, agent.id, 'lead.captured', { leadId: id, agentId: agent.id, conversationId: null, name: body.name ?? '', email: body.email ?? '', phone: body.phone ?? '', note: body.note ?? '', source: 'widget' });
    return id;
  });
}

/** Operator messages after a message id (or a time in ms) the widget last saw, and the conversation's newest message id. */
export async function pollOperator(ctx: AgentsContext, agent: AgentRow, conversationId: string, after: string | undefined) {
  const conv = await conversationHandoff(ctx.db, agent.id, conversationId);
  if (!conv) throw notFound('conversation not found');
  let afterSeq = 0;
  if (after) {
    const bySeq = await messageSeq(ctx.db, conv.id, after);
    if (bySeq !== undefined) afterSeq = bySeq;
    else if (/^\d+$/.test(after)) afterSeq = await lastSeqAt(ctx.db, conv.id, Number(after));
    else throw badRequest('after must be a message id or a time in milliseconds');
  }
  const rows = await operatorMessagesAfter(ctx.db, conv.id, afterSeq, 100);
  return {
    conversationId: conv.id,
    handoff: conv.handoff,
    messages: rows.map((m) => ({ id: m.id, role: m.role, text: m.text, created_at: new Date(m.created_at).toISOString() })),
    cursor: await lastMessageId(ctx.db, conv.id),
  };
}
