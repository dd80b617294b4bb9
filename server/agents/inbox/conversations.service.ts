import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { addSource, presentSource } from '../knowledge/sources.service';
import { getAgent } from '../agents/agents.service';
import { insertEvent } from '../webhooks/events.repository';
import { HANDOFF_ACTIONS } from '../../../shared/api/contracts/agents-values';
import * as repo from './conversations.repository';
import type { ConversationRow, MessageRow } from './conversations.repository';
export { HANDOFF_ACTIONS };

const iso = (t: number) => new Date(t).toISOString();

function presentMessage(m: MessageRow) {
  return { id: m.id, role: m.role, text: m.text, engine: m.engine, feedback: m.feedback, corrected_source_id: m.corrected_source_id, created_at: iso(m.created_at) };
}

export function presentConversation(c: ConversationRow & { last_message?: string | null }) {
  return {
    id: c.id,
    agentId: c.agent_id,
    channel: c.channel,
    handoff: c.handoff,
    feedback: c.feedback,
    country: c.country || null,
    contactId: c.contact_id,
    first_message: c.first_message,
    last_message: c.last_message ?? null,
    message_count: c.message_count,
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}

async function getConversation(ctx: AgentsContext, ws: string, id: string): Promise<ConversationRow> {
  const c = await repo.conversationOf(ctx.db, ws, id);
  if (!c) throw notFound('conversation not found');
  return c;
}

async function getMessage(ctx: AgentsContext, ws: string, conversationId: string, mid: string): Promise<MessageRow> {
  const m = await repo.messageOf(ctx.db, ws, conversationId, mid);
  if (!m) throw notFound('message not found');
  return m;
}

/** One conversation of the workspace with every message. */
export async function conversationDetail(ctx: AgentsContext, ws: string, id: string) {
  const c = await getConversation(ctx, ws, id);
  return { ...presentConversation(c), messages: (await repo.messagesOf(ctx.db, ws, c.id)).map(presentMessage) };
}

export async function listConversations(ctx: AgentsContext, ws: string, opts: { agentId?: string; channel?: string; limit: number }) {
  return (await repo.listConversations(ctx.db, ws, opts)).map(presentConversation);
}

/** Shared inbox: visitors waiting for a person first, then conversations an operator holds, then the rest. */
export async function inbox(ctx: AgentsContext, ws: string, agentId: string | undefined, limit = 200) {
  return (await repo.inboxConversations(ctx.db, ws, agentId, limit)).map(presentConversation);
}

export async function channelsInUse(ctx: AgentsContext, ws: string, agentId: string | undefined): Promise<string[]> {
  return repo.channelsInUse(ctx.db, ws, agentId);
}

export async function exportRows(ctx: AgentsContext, ws: string, agentId: string | undefined, limit: number) {
  return repo.exportRows(ctx.db, ws, agentId, limit);
}

export async function setHandoff(ctx: AgentsContext, ws: string, cid: string, action: keyof typeof HANDOFF_ACTIONS): Promise<ConversationRow> {
  await getConversation(ctx, ws, cid);
  await repo.setHandoff(ctx.db, ws, cid, HANDOFF_ACTIONS[action], Date.now());
  return getConversation(ctx, ws, cid);
}

export async function setConversationFeedback(ctx: AgentsContext, ws: string, cid: string, feedback: string | null): Promise<ConversationRow> {
  await getConversation(ctx, ws, cid);
  await repo.setConversationFeedback(ctx.db, ws, cid, feedback);
  return getConversation(ctx, ws, cid);
}

export async function setMessageFeedback(ctx: AgentsContext, ws: string, cid: string, mid: string, feedback: string | null) {
  await getConversation(ctx, ws, cid);
  await getMessage(ctx, ws, cid, mid);
  await repo.setMessageFeedback(ctx.db, ws, mid, feedback);
  return presentMessage(await getMessage(ctx, ws, cid, mid));
}

export async function deleteConversation(ctx: AgentsContext, ws: string, cid: string): Promise<void> {
  await getConversation(ctx, ws, cid);
  await repo.deleteConversation(ctx.db, ws, cid);
}

export async function deleteAgentConversations(ctx: AgentsContext, ws: string, agentId: string): Promise<number> {
  return repo.deleteAgentConversations(ctx.db, ws, agentId);
}

/**
 * A human reply: stored as an operator message (the widget polls for it); the operator takes the conversation
 * over. The message, the hand-over and the message.created event are one transaction.
 */
export async function operatorReply(ctx: AgentsContext, ws: string, cid: string, text: string, userId: string) {
  const c = await getConversation(ctx, ws, cid);
  const mid = newId('msg');
  const now = Date.now();
  await ctx.db.transaction().execute(async (tx) => {
    await repo.insertOperatorMessage(tx, c, { id: mid, text, now });
    await insertEvent(tx, ws, c.agent_id, 'message.created', { conversationId: cid, agentId: c.agent_id, messageId: mid, role: 'operator', text, channel: c.channel, operator: userId }, now);
  });
  return { message: presentMessage(await getMessage(ctx, ws, cid, mid)), conversation: presentConversation(await getConversation(ctx, ws, cid)) };
}

/** A corrected answer becomes a trained Q&A source: the visitor's question with the operator's answer. */
export async function correct(ctx: AgentsContext, ws: string, cid: string, mid: string, answer: string) {
  const c = await getConversation(ctx, ws, cid);
  const m = await getMessage(ctx, ws, cid, mid);
  let question = m.text;
  if (m.role !== 'user') {
    const prev = await repo.questionBefore(ctx.db, ws, cid, m.seq);
    if (prev === null) throw badRequest('no visitor question before this message');
    question = prev;
  }
  const agent = await getAgent(ctx, ws, c.agent_id);
  const source = await addSource(ctx, agent, { type: 'qa', name: `Correction: ${question.slice(0, 80)}`, question, answer });
  await repo.markCorrected(ctx.db, ws, mid, source.id);
  return { ok: true, source: await presentSource(source, true) };
}

export async function feedbackStats(ctx: AgentsContext, ws: string, agentId: string | undefined) {
  const { messages, conversations } = await repo.feedbackCounts(ctx.db, ws, agentId);
  const { up, down } = messages;
  return {
    up,
    down,
    total: up + down,
    rate: up + down ? Math.round((up / (up + down)) * 1000) / 1000 : null,
    conversations,
  };
}
