import type { Insertable, Selectable } from 'kysely';
import type { AgentsDb, ConversationsTable } from '../schema';

/** Conversations and their messages as a chat turn writes them (what visitors leave: crm/capture.repository.ts). */

export type ConversationRecord = Selectable<ConversationsTable>;

const CONVERSATION_COLUMNS = [
  'id', 'workspace_id', 'agent_id', 'channel', 'handoff', 'feedback', 'visitor', 'country', 'contact_id', 'first_message', 'message_count', 'created_at', 'updated_at',
] as const;

export async function conversationOfAgent(db: AgentsDb, ws: string, agentId: string, id: string): Promise<ConversationRecord | undefined> {
  return db.selectFrom('conversations').select(CONVERSATION_COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).where('agent_id', '=', agentId).executeTakeFirst();
}

export async function insertConversation(db: AgentsDb, row: Insertable<ConversationsTable>): Promise<ConversationRecord> {
  return db.insertInto('conversations').values(row).returning(CONVERSATION_COLUMNS).executeTakeFirstOrThrow();
}

/** The last `limit` visitor and assistant messages, oldest first. */
export async function recentHistory(db: AgentsDb, ws: string, conversationId: string, limit: number): Promise<{ role: 'user' | 'assistant'; text: string }[]> {
  const rows = await db
    .selectFrom('messages')
    .select(['role', 'text'])
    .where('conversation_id', '=', conversationId)
    .where('workspace_id', '=', ws)
    .where('role', 'in', ['user', 'assistant'])
    .orderBy('seq', 'desc')
    .limit(limit)
    .$narrowType<{ role: 'user' | 'assistant' }>()
    .execute();
  return rows.reverse();
}

/** A message appended to a conversation (its count and time follow). */
export async function appendMessage(db: AgentsDb, m: { id: string; conversation_id: string; workspace_id: string; role: string; text: string; engine: string | null; created_at: number }): Promise<void> {
  await db.insertInto('messages').values(m).execute();
  await db
    .updateTable('conversations')
    .set((eb) => ({ message_count: eb('message_count', '+', 1), updated_at: m.created_at }))
    .where('id', '=', m.conversation_id)
    .where('workspace_id', '=', m.workspace_id)
    .execute();
}

/** Marks a handoff request unless a person was already asked for or has taken over; true when it changed. */
export async function requestHandoff(db: AgentsDb, ws: string, conversationId: string): Promise<boolean> {
  const r = await db
    .updateTable('conversations')
    .set({ handoff: 'requested' })
    .where('id', '=', conversationId)
    .where('workspace_id', '=', ws)
    .where('handoff', 'not in', ['operator', 'requested'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** After a turn: the conversation's handoff state and the workspace's credit balance, in one statement. */
export async function handoffAndCredits(db: AgentsDb, ws: string, conversationId: string): Promise<{ handoff: string; credits: number }> {
  return db
    .selectFrom('conversations as c')
    .innerJoin('workspaces as w', 'w.id', 'c.workspace_id')
    .select(['c.handoff', 'w.credits'])
    .where('c.id', '=', conversationId)
    .where('c.workspace_id', '=', ws)
    .executeTakeFirstOrThrow();
}

export async function workspaceCredits(db: AgentsDb, ws: string): Promise<number> {
  const r = await db.selectFrom('workspaces').select('credits').where('id', '=', ws).executeTakeFirstOrThrow();
  return r.credits;
}
