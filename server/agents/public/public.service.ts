import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import type { AgentRow } from '../agents/agents.service';
import { captureLead } from '../crm/capture.service';
import { conversationHandoff, lastMessageId, lastSeqAt, messageSeq, operatorMessagesAfter } from './public.repository';

export interface WidgetLead {
  conversationId?: string | null;
  email?: string;
  phone?: string;
  name?: string;
  note?: string;
}

/**
 * A lead the widget's form left: one capture path with the chat's (captureLead), so the contact and the lead are merged
 * by email, else phone, and the same details sent twice at once (or through two processes) make one contact and one
 * lead (unique capture keys). With a conversation the contact is linked to it; the note is added to the lead.
 */
export async function widgetLead(ctx: AgentsContext, agent: AgentRow, body: WidgetLead): Promise<string> {
  if (!body.email && !body.phone) throw badRequest('email or phone is required');
  const cid = body.conversationId ?? null;
  if (cid && !(await conversationHandoff(ctx.db, agent.id, cid))) throw notFound('conversation not found');
  const r = await captureLead(ctx.db, agent.workspace_id, agent.id, {
    email: body.email || undefined, phone: body.phone || undefined, name: body.name || undefined, note: body.note || undefined,
    conversationId: cid, source: cid ? 'chat' : 'widget',
  });
  return r.leadId;
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
