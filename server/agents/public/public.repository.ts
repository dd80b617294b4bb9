import type { AgentsDb } from '../schema';

/** What the public widget reads of a conversation (by the agent it belongs to) and the operators' landing pages. */

export async function conversationHandoff(db: AgentsDb, agentId: string, conversationId: string): Promise<{ id: string; handoff: string } | undefined> {
  return db.selectFrom('conversations').select(['id', 'handoff']).where('id', '=', conversationId).where('agent_id', '=', agentId).executeTakeFirst();
}

export async function messageSeq(db: AgentsDb, conversationId: string, messageId: string): Promise<number | undefined> {
  const r = await db.selectFrom('messages').select('seq').where('id', '=', messageId).where('conversation_id', '=', conversationId).executeTakeFirst();
  return r?.seq;
}

/** The last message position at or before a time (0 when none). */
export async function lastSeqAt(db: AgentsDb, conversationId: string, at: number): Promise<number> {
  const r = await db.selectFrom('messages').select((eb) => eb.fn.max('seq').as('s')).where('conversation_id', '=', conversationId).where('created_at', '<=', at).executeTakeFirst();
  return Number(r?.s ?? 0);
}

export async function operatorMessagesAfter(db: AgentsDb, conversationId: string, afterSeq: number, limit: number) {
  return db
    .selectFrom('messages')
    .select(['id', 'role', 'text', 'created_at'])
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', afterSeq)
    .where('role', '=', 'operator')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export async function lastMessageId(db: AgentsDb, conversationId: string): Promise<string | null> {
  const r = await db.selectFrom('messages').select('id').where('conversation_id', '=', conversationId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return r?.id ?? null;
}

export async function contentPageRow(db: AgentsDb, page: string): Promise<{ data: string; updated_at: number } | undefined> {
  return db.selectFrom('content_pages').select(['data', 'updated_at']).where('page', '=', page).executeTakeFirst();
}

export async function savedContentPages(db: AgentsDb): Promise<string[]> {
  const rows = await db.selectFrom('content_pages').select('page').orderBy('page').execute();
  return rows.map((r) => r.page);
}

/** The store answers a trivial query (health check). */
export async function ping(db: AgentsDb): Promise<void> {
  await db.selectFrom('content_pages').select('page').limit(1).execute();
}
