import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { recordEvent } from '../events';
import type { ConversationRow } from '../chat/chat.service';
import { insertMessage } from '../chat/chat.service';
import { addSource, presentSource } from '../knowledge/sources.service';
import { getAgent } from '../agents/agents.service';
import { HANDOFF_ACTIONS } from '../../../shared/api/contracts/agents-values';
export { HANDOFF_ACTIONS };

export interface MessageRow {
  seq: number;
  id: string;
  conversation_id: string;
  role: string;
  text: string;
  engine: string | null;
  feedback: string | null;
  corrected_source_id: string | null;
  created_at: number;
}

const iso = (t: number) => new Date(t).toISOString();

export function presentMessage(m: MessageRow) {
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

export function getConversation(ctx: AgentsContext, ws: string, id: string): ConversationRow {
  const c = ctx.legacyDb.prepare('SELECT * FROM conversations WHERE id = ? AND workspace_id = ?').get(id, ws) as ConversationRow | undefined;
  if (!c) throw notFound('conversation not found');
  return c;
}

export function getMessage(ctx: AgentsContext, conversationId: string, mid: string): MessageRow {
  const m = ctx.legacyDb.prepare('SELECT * FROM messages WHERE id = ? AND conversation_id = ?').get(mid, conversationId) as MessageRow | undefined;
  if (!m) throw notFound('message not found');
  return m;
}

export function messagesOf(ctx: AgentsContext, conversationId: string): MessageRow[] {
  return ctx.legacyDb.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq').all(conversationId) as MessageRow[];
}

const LAST = '(SELECT text FROM messages m WHERE m.conversation_id = c.id ORDER BY seq DESC LIMIT 1) AS last_message';

export function listConversations(ctx: AgentsContext, ws: string, opts: { agentId?: string; channel?: string; limit: number }) {
  const where = ['c.workspace_id = ?'];
  const args: unknown[] = [ws];
  if (opts.agentId) where.push('c.agent_id = ?'), args.push(opts.agentId);
  if (opts.channel) where.push('c.channel = ?'), args.push(opts.channel);
  const rows = ctx.legacyDb.prepare(`SELECT c.*, ${LAST} FROM conversations c WHERE ${where.join(' AND ')} ORDER BY c.updated_at DESC, c.id LIMIT ?`).all(...args, opts.limit) as (ConversationRow & { last_message: string | null })[];
  return rows.map(presentConversation);
}

/** Shared inbox: visitors waiting for a person first, then conversations an operator holds, then the rest. */
export function inbox(ctx: AgentsContext, ws: string, agentId: string | undefined, limit = 200) {
  const rows = ctx.legacyDb
    .prepare(
      `SELECT c.*, ${LAST} FROM conversations c WHERE c.workspace_id = ? ${agentId ? 'AND c.agent_id = ?' : ''}
       ORDER BY CASE c.handoff WHEN 'requested' THEN 0 WHEN 'operator' THEN 1 WHEN 'bot' THEN 2 ELSE 3 END, c.updated_at DESC LIMIT ?`,
    )
    .all(...(agentId ? [ws, agentId] : [ws]), limit) as (ConversationRow & { last_message: string | null })[];
  return rows.map(presentConversation);
}


export function setHandoff(ctx: AgentsContext, ws: string, cid: string, action: keyof typeof HANDOFF_ACTIONS): ConversationRow {
  getConversation(ctx, ws, cid);
  ctx.legacyDb.prepare('UPDATE conversations SET handoff = ?, updated_at = ? WHERE id = ?').run(HANDOFF_ACTIONS[action], Date.now(), cid);
  return getConversation(ctx, ws, cid);
}

/** A human reply: stored as an operator message (the widget polls for it); the operator takes the conversation over. */
export async function operatorReply(ctx: AgentsContext, ws: string, cid: string, text: string, userId: string) {
  const c = getConversation(ctx, ws, cid);
  const msg = await ctx.db.transaction().execute(async (tx) => {
    const m = await insertMessage(tx, c, 'operator', text);
    await tx.updateTable('conversations').set({ handoff: 'operator' }).where('id', '=', cid).where('workspace_id', '=', ws).execute();
    await recordEvent(tx, ws, c.agent_id, 'message.created', { conversationId: cid, agentId: c.agent_id, messageId: m.id, role: 'operator', text, channel: c.channel, operator: userId });
    return m;
  });
  return { message: presentMessage(getMessage(ctx, cid, msg.id)), conversation: presentConversation(getConversation(ctx, ws, cid)) };
}

/** A corrected answer becomes a trained Q&A source: the visitor's question with the operator's answer. */
export async function correct(ctx: AgentsContext, ws: string, cid: string, mid: string, answer: string) {
  const c = getConversation(ctx, ws, cid);
  const m = getMessage(ctx, cid, mid);
  let question = m.text;
  if (m.role !== 'user') {
    const prev = ctx.legacyDb.prepare("SELECT text FROM messages WHERE conversation_id = ? AND seq < ? AND role = 'user' ORDER BY seq DESC LIMIT 1").get(cid, m.seq) as { text: string } | undefined;
    if (!prev) throw badRequest('no visitor question before this message');
    question = prev.text;
  }
  const agent = await getAgent(ctx, ws, c.agent_id);
  const source = await addSource(ctx, agent, { type: 'qa', name: `Correction: ${question.slice(0, 80)}`, question, answer });
  ctx.legacyDb.prepare('UPDATE messages SET corrected_source_id = ? WHERE id = ?').run(source.id, mid);
  return { ok: true, source: presentSource(source, true) };
}

export function feedbackStats(ctx: AgentsContext, ws: string, agentId: string | undefined) {
  const scope = agentId ? 'AND c.agent_id = ?' : '';
  const args = agentId ? [ws, agentId] : [ws];
  const m = ctx.legacyDb
    .prepare(`SELECT SUM(CASE WHEN m.feedback = 'up' THEN 1 ELSE 0 END) AS up, SUM(CASE WHEN m.feedback = 'down' THEN 1 ELSE 0 END) AS down FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.workspace_id = ? ${scope}`)
    .get(...args) as { up: number | null; down: number | null };
  const c = ctx.legacyDb.prepare(`SELECT SUM(CASE WHEN c.feedback = 'up' THEN 1 ELSE 0 END) AS up, SUM(CASE WHEN c.feedback = 'down' THEN 1 ELSE 0 END) AS down FROM conversations c WHERE c.workspace_id = ? ${scope}`).get(...args) as { up: number | null; down: number | null };
  const up = m.up ?? 0;
  const down = m.down ?? 0;
  return {
    up,
    down,
    total: up + down,
    rate: up + down ? Math.round((up / (up + down)) * 1000) / 1000 : null,
    conversations: { up: c.up ?? 0, down: c.down ?? 0 },
  };
}
