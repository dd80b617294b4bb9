import { sql, type ExpressionBuilder } from 'kysely';
import { countAll } from '../sql';
import type { AgentsDB, AgentsDb } from '../schema';

/** Conversations of the workspace, or of one agent in it. */
const scoped = (ws: string, agentId: string | undefined) => (eb: ExpressionBuilder<AgentsDB & { c: AgentsDB['conversations'] }, 'c'>) =>
  agentId ? eb.and([eb('c.workspace_id', '=', ws), eb('c.agent_id', '=', agentId)]) : eb('c.workspace_id', '=', ws);

const num = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);

export async function countConversations(db: AgentsDb, ws: string, agentId: string | undefined): Promise<number> {
  return num(db.selectFrom('conversations as c').select(countAll().as('n')).where(scoped(ws, agentId)).executeTakeFirst());
}

export async function countConversationMessages(db: AgentsDb, ws: string, agentId: string | undefined): Promise<number> {
  return num(db.selectFrom('messages as m').innerJoin('conversations as c', 'c.id', 'm.conversation_id').select(countAll().as('n')).where(scoped(ws, agentId)).executeTakeFirst());
}

/** Creation times of the conversations started since `since`. */
export async function conversationTimesSince(db: AgentsDb, ws: string, agentId: string | undefined, since: number) {
  return db.selectFrom('conversations as c').select('c.created_at').where(scoped(ws, agentId)).where('c.created_at', '>=', since).execute();
}

/** Times of the messages written since `since`. */
export async function messageTimesSince(db: AgentsDb, ws: string, agentId: string | undefined, since: number) {
  return db
    .selectFrom('messages as m').innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select('m.created_at').where(scoped(ws, agentId)).where('m.created_at', '>=', since)
    .execute();
}

/** Conversations per visitor country ('unknown' when none), most first, at most `limit`. */
export async function topCountries(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  const rows = await db
    .selectFrom('conversations as c')
    .select([sql<string>`CASE ${sql.ref('c.country')} WHEN '' THEN 'unknown' ELSE ${sql.ref('c.country')} END`.as('country'), countAll().as('count')])
    .where(scoped(ws, agentId))
    .groupBy(sql`1`).orderBy('count', 'desc').orderBy('country').limit(limit)
    .execute();
  return rows.map((r) => ({ country: r.country, count: Number(r.count) }));
}

/** Conversations per channel, most first. */
export async function conversationsByChannel(db: AgentsDb, ws: string, agentId: string | undefined) {
  const rows = await db
    .selectFrom('conversations as c').select(['c.channel', countAll().as('count')])
    .where(scoped(ws, agentId)).groupBy('c.channel').orderBy('count', 'desc')
    .execute();
  return rows.map((r) => ({ channel: r.channel, count: Number(r.count) }));
}

/** The first visitor messages of the newest conversations. */
export async function firstMessages(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  return db
    .selectFrom('conversations as c').select('c.first_message')
    .where(scoped(ws, agentId)).where('c.first_message', '!=', '')
    .orderBy('c.created_at', 'desc').limit(limit)
    .execute();
}

/** The newest visitor messages. */
export async function visitorMessages(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  return db
    .selectFrom('messages as m').innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select('m.text').where(scoped(ws, agentId)).where('m.role', '=', 'user')
    .orderBy('m.seq', 'desc').limit(limit)
    .execute();
}

/** The visitor question before each of the newest assistant replies whose text is one of `replies`. */
export async function questionsAnsweredWith(db: AgentsDb, ws: string, replies: string[], limit: number) {
  return db
    .selectFrom('messages as m')
    .select((eb) => eb
      .selectFrom('messages as u').select('u.text')
      .whereRef('u.conversation_id', '=', 'm.conversation_id').whereRef('u.seq', '<', 'm.seq').where('u.role', '=', 'user')
      .orderBy('u.seq', 'desc').limit(1)
      .as('q'))
    .where('m.workspace_id', '=', ws).where('m.role', '=', 'assistant').where('m.text', 'in', replies)
    .orderBy('m.seq', 'desc').limit(limit)
    .execute();
}

export async function workspaceCredits(db: AgentsDb, ws: string) {
  return db.selectFrom('workspaces').select(['credits', 'tier']).where('id', '=', ws).executeTakeFirstOrThrow();
}

/** The workspace's figures the dashboard and the advisor show. */
export async function workspaceCounts(db: AgentsDb, ws: string, monthStart: number) {
  const count = (q: Promise<{ n: number | string | bigint } | undefined>) => num(q);
  const [agents, sources, leads, contacts, openHandoffs, thumbsUp, thumbsDown, usedThisMonth] = await Promise.all([
    count(db.selectFrom('agents').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirst()),
    count(db.selectFrom('sources').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirst()),
    count(db.selectFrom('leads').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirst()),
    count(db.selectFrom('contacts').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirst()),
    count(db.selectFrom('conversations').select(countAll().as('n')).where('workspace_id', '=', ws).where('handoff', '=', 'requested').executeTakeFirst()),
    count(db.selectFrom('messages').select(countAll().as('n')).where('workspace_id', '=', ws).where('feedback', '=', 'up').executeTakeFirst()),
    count(db.selectFrom('messages').select(countAll().as('n')).where('workspace_id', '=', ws).where('feedback', '=', 'down').executeTakeFirst()),
    count(db.selectFrom('messages').select(countAll().as('n')).where('workspace_id', '=', ws).where('role', '=', 'assistant').where('created_at', '>=', monthStart).executeTakeFirst()),
  ]);
  return { agents, sources, leads, contacts, openHandoffs, thumbsUp, thumbsDown, usedThisMonth };
}

/** The workspace's agents (oldest first) with how many knowledge sources each has. */
export async function agentsWithSourceCounts(db: AgentsDb, ws: string) {
  const rows = await db
    .selectFrom('agents as a')
    .select((eb) => ['a.name', eb.selectFrom('sources as s').select(countAll().as('n')).whereRef('s.agent_id', '=', 'a.id').as('n')])
    .where('a.workspace_id', '=', ws).orderBy('a.created_at')
    .execute();
  return rows.map((r) => ({ name: r.name, n: Number(r.n ?? 0) }));
}

/** The workspace's newest conversations, each with its last message. */
export async function recentConversations(db: AgentsDb, ws: string, limit: number) {
  return db
    .selectFrom('conversations as c')
    .selectAll('c')
    .select((eb) => eb.selectFrom('messages as m').select('m.text').whereRef('m.conversation_id', '=', 'c.id').orderBy('m.seq', 'desc').limit(1).as('last_message'))
    .where('c.workspace_id', '=', ws).orderBy('c.updated_at', 'desc').limit(limit)
    .execute();
}

/** Per agent (oldest first): assistant replies and conversations since `since`. */
export async function usagePerAgent(db: AgentsDb, ws: string, since: number) {
  const rows = await db
    .selectFrom('agents as a')
    .select((eb) => [
      'a.id as agentId', 'a.name',
      eb.selectFrom('messages as m').innerJoin('conversations as c', 'c.id', 'm.conversation_id').select(countAll().as('n'))
        .whereRef('c.agent_id', '=', 'a.id').where('m.role', '=', 'assistant').where('m.created_at', '>=', since).as('messages'),
      eb.selectFrom('conversations as c').select(countAll().as('n')).whereRef('c.agent_id', '=', 'a.id').where('c.created_at', '>=', since).as('conversations'),
    ])
    .where('a.workspace_id', '=', ws).orderBy('a.created_at')
    .execute();
  return rows.map((r) => ({ agentId: r.agentId, name: r.name, messages: Number(r.messages ?? 0), conversations: Number(r.conversations ?? 0) }));
}
