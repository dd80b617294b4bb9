import type { Insertable, Selectable, Updateable } from 'kysely';
import type { AgentsDb, AgentsTable } from '../schema';
import { countAll } from '../sql';

/** Agents of a workspace. Every query names the workspace, except the public-id lookup of the widget. */

export type AgentRecord = Selectable<AgentsTable>;

const AGENT_COLUMNS = [
  'id', 'workspace_id', 'name', 'model', 'temperature', 'system_prompt', 'welcome_message', 'visibility', 'status', 'emoji', 'color',
  'avatar_url', 'company_name', 'website', 'public_id', 'agent_email', 'widget', 'last_trained_at', 'created_at', 'updated_at',
] as const;

export async function agentById(db: AgentsDb, ws: string, id: string): Promise<AgentRecord | undefined> {
  return db.selectFrom('agents').select(AGENT_COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function firstAgent(db: AgentsDb, ws: string): Promise<AgentRecord | undefined> {
  return db.selectFrom('agents').select(AGENT_COLUMNS).where('workspace_id', '=', ws).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}

/** The widget's lookup: a public id names one agent of any workspace. */
export async function agentByPublic(db: AgentsDb, publicId: string): Promise<AgentRecord | undefined> {
  return db.selectFrom('agents').select(AGENT_COLUMNS).where('public_id', '=', publicId).executeTakeFirst();
}

export async function insertAgent(db: AgentsDb, row: Insertable<AgentsTable>): Promise<void> {
  await db.insertInto('agents').values(row).execute();
}

export async function updateAgentColumns(db: AgentsDb, ws: string, id: string, set: Updateable<AgentsTable>): Promise<void> {
  await db.updateTable('agents').set(set).where('id', '=', id).where('workspace_id', '=', ws).execute();
}

/** The workspace's agents with how many conversations, sources and leads each has. */
export async function agentsWithCounts(db: AgentsDb, ws: string) {
  return db
    .selectFrom('agents as a')
    .select(AGENT_COLUMNS.map((c) => `a.${c}` as const))
    .select((eb) => [
      eb.selectFrom('conversations as c').select(countAll().as('n')).whereRef('c.agent_id', '=', 'a.id').as('conversation_count'),
      eb.selectFrom('sources as s').select(countAll().as('n')).whereRef('s.agent_id', '=', 'a.id').as('source_count'),
      eb.selectFrom('leads as l').select(countAll().as('n')).whereRef('l.agent_id', '=', 'a.id').as('lead_count'),
    ])
    .where('a.workspace_id', '=', ws)
    .orderBy('a.created_at')
    .orderBy('a.id')
    .execute();
}

/** Removes an agent and its passages (the other rows go with it by foreign key). */
export async function deleteAgentRows(db: AgentsDb, ws: string, id: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('passages').where('agent_id', '=', id).where('workspace_id', '=', ws).execute();
    await tx.deleteFrom('agents').where('id', '=', id).where('workspace_id', '=', ws).execute();
  });
}

export async function setAvatarIfNone(db: AgentsDb, ws: string, id: string, avatarUrl: string, now: number): Promise<void> {
  await db.updateTable('agents').set({ avatar_url: avatarUrl, updated_at: now }).where('id', '=', id).where('workspace_id', '=', ws).where('avatar_url', '=', '').execute();
}

export async function stampTrained(db: AgentsDb, ws: string, id: string, now: number): Promise<void> {
  await db.updateTable('agents').set({ last_trained_at: now }).where('id', '=', id).where('workspace_id', '=', ws).execute();
}
