import { sql, type Selectable } from 'kysely';
import type { AgentsDb, ConversationsTable, MessagesTable } from '../schema';

/** Conversations and their messages as the inbox reads and changes them; every query names the workspace. */

export type ConversationRow = Selectable<ConversationsTable>;
export type MessageRow = Selectable<MessagesTable>;

const CONVERSATION = ['c.id', 'c.workspace_id', 'c.agent_id', 'c.channel', 'c.handoff', 'c.feedback', 'c.visitor', 'c.country', 'c.contact_id', 'c.first_message', 'c.message_count', 'c.created_at', 'c.updated_at'] as const;
const MESSAGE = ['seq', 'id', 'conversation_id', 'workspace_id', 'role', 'text', 'engine', 'feedback', 'corrected_source_id', 'created_at'] as const;

export async function conversationOf(db: AgentsDb, ws: string, id: string): Promise<ConversationRow | undefined> {
  return db.selectFrom('conversations as c').select(CONVERSATION).where('c.workspace_id', '=', ws).where('c.id', '=', id).executeTakeFirst();
}

export async function messageOf(db: AgentsDb, ws: string, conversationId: string, mid: string): Promise<MessageRow | undefined> {
  return db.selectFrom('messages').select(MESSAGE).where('workspace_id', '=', ws).where('conversation_id', '=', conversationId).where('id', '=', mid).executeTakeFirst();
}

export async function messagesOf(db: AgentsDb, ws: string, conversationId: string): Promise<MessageRow[]> {
  return db.selectFrom('messages').select(MESSAGE).where('workspace_id', '=', ws).where('conversation_id', '=', conversationId).orderBy('seq').execute();
}

/** Conversations with the text of their latest message, filtered, in the order given. */
function withLastMessage(db: AgentsDb, ws: string, agentId: string | undefined) {
  let q = db
    .selectFrom('conversations as c')
    .select(CONVERSATION)
    .select((eb) => eb.selectFrom('messages as m').select('m.text').whereRef('m.conversation_id', '=', 'c.id').orderBy('m.seq', 'desc').limit(1).as('last_message'))
    .where('c.workspace_id', '=', ws);
  if (agentId) q = q.where('c.agent_id', '=', agentId);
  return q;
}

export async function listConversations(db: AgentsDb, ws: string, o: { agentId?: string; channel?: string; limit: number }) {
  let q = withLastMessage(db, ws, o.agentId);
  if (o.channel) q = q.where('c.channel', '=', o.channel);
  return q.orderBy('c.updated_at', 'desc').orderBy('c.id').limit(o.limit).execute();
}

/** Visitors waiting for a person first, then conversations an operator holds, then the rest; newest first within each. */
export async function inboxConversations(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  return withLastMessage(db, ws, agentId)
    .orderBy(sql`CASE c.handoff WHEN 'requested' THEN 0 WHEN 'operator' THEN 1 WHEN 'bot' THEN 2 ELSE 3 END`)
    .orderBy('c.updated_at', 'desc').orderBy('c.id')
    .limit(limit).execute();
}

export async function channelsInUse(db: AgentsDb, ws: string, agentId: string | undefined): Promise<string[]> {
  let q = db.selectFrom('conversations').select('channel').distinct().where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return (await q.orderBy('channel').execute()).map((r) => r.channel);
}

/** The latest messages with their conversation, newest first (the CSV export). */
export async function exportRows(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  let q = db
    .selectFrom('messages as m').innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select(['c.id as cid', 'c.agent_id', 'c.channel', 'c.handoff', 'c.country', 'm.id as mid', 'm.role', 'm.text', 'm.feedback', 'm.created_at'])
    .where('c.workspace_id', '=', ws);
  if (agentId) q = q.where('c.agent_id', '=', agentId);
  return q.orderBy('m.seq', 'desc').limit(limit).execute();
}

export async function setHandoff(db: AgentsDb, ws: string, id: string, handoff: string, now: number): Promise<void> {
  await db.updateTable('conversations').set({ handoff, updated_at: now }).where('workspace_id', '=', ws).where('id', '=', id).execute();
}

export async function setConversationFeedback(db: AgentsDb, ws: string, id: string, feedback: string | null): Promise<void> {
  await db.updateTable('conversations').set({ feedback }).where('workspace_id', '=', ws).where('id', '=', id).execute();
}

export async function setMessageFeedback(db: AgentsDb, ws: string, mid: string, feedback: string | null): Promise<void> {
  await db.updateTable('messages').set({ feedback }).where('workspace_id', '=', ws).where('id', '=', mid).execute();
}

export async function markCorrected(db: AgentsDb, ws: string, mid: string, sourceId: string): Promise<void> {
  await db.updateTable('messages').set({ corrected_source_id: sourceId }).where('workspace_id', '=', ws).where('id', '=', mid).execute();
}

/** An operator's message; the conversation counts it and the operator holds it from now on. */
export async function insertOperatorMessage(db: AgentsDb, c: { id: string; workspace_id: string }, m: { id: string; text: string; now: number }): Promise<void> {
  await db.insertInto('messages').values({ id: m.id, conversation_id: c.id, workspace_id: c.workspace_id, role: 'operator', text: m.text, engine: null, created_at: m.now }).execute();
  await db
    .updateTable('conversations')
    .set((eb) => ({ message_count: eb('message_count', '+', 1), updated_at: m.now, handoff: 'operator' }))
    .where('workspace_id', '=', c.workspace_id).where('id', '=', c.id)
    .execute();
}

/** The visitor's question a message answers: the latest visitor message before it. */
export async function questionBefore(db: AgentsDb, ws: string, conversationId: string, seq: number): Promise<string | null> {
  const r = await db
    .selectFrom('messages').select('text')
    .where('workspace_id', '=', ws).where('conversation_id', '=', conversationId).where('seq', '<', seq).where('role', '=', 'user')
    .orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return r?.text ?? null;
}

export async function deleteConversation(db: AgentsDb, ws: string, id: string): Promise<void> {
  await db.deleteFrom('conversations').where('workspace_id', '=', ws).where('id', '=', id).execute();
}

/** Answers how many were removed. */
export async function deleteAgentConversations(db: AgentsDb, ws: string, agentId: string): Promise<number> {
  const r = await db.deleteFrom('conversations').where('workspace_id', '=', ws).where('agent_id', '=', agentId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

const upDown = (column: 'm.feedback' | 'c.feedback') => [
  sql<number | null>`SUM(CASE WHEN ${sql.ref(column)} = 'up' THEN 1 ELSE 0 END)`.as('up'),
  sql<number | null>`SUM(CASE WHEN ${sql.ref(column)} = 'down' THEN 1 ELSE 0 END)`.as('down'),
];

/** Thumbs up/down on messages and on whole conversations. */
export async function feedbackCounts(db: AgentsDb, ws: string, agentId: string | undefined) {
  let m = db.selectFrom('messages as m').innerJoin('conversations as c', 'c.id', 'm.conversation_id').select(upDown('m.feedback')).where('c.workspace_id', '=', ws);
  let c = db.selectFrom('conversations as c').select(upDown('c.feedback')).where('c.workspace_id', '=', ws);
  if (agentId) {
    m = m.where('c.agent_id', '=', agentId);
    c = c.where('c.agent_id', '=', agentId);
  }
  const [mr, cr] = [await m.executeTakeFirstOrThrow(), await c.executeTakeFirstOrThrow()];
  return { messages: { up: Number(mr.up ?? 0), down: Number(mr.down ?? 0) }, conversations: { up: Number(cr.up ?? 0), down: Number(cr.down ?? 0) } };
}
