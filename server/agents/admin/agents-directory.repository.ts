import { countAll } from '../sql';
import type { AgentsDb } from '../schema';

/** The operator's directory of every workspace's agents (admin side of the agents table). */

const AGENT_COLUMNS = [
  'id', 'workspace_id', 'name', 'model', 'temperature', 'system_prompt', 'welcome_message', 'visibility', 'status', 'emoji', 'color', 'avatar_url',
  'company_name', 'website', 'public_id', 'agent_email', 'widget', 'last_trained_at', 'created_at', 'updated_at',
] as const;

export async function findAgent(db: AgentsDb, id: string) {
  return db.selectFrom('agents').select(AGENT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function agentsOfWorkspace(db: AgentsDb, ws: string) {
  return db.selectFrom('agents').select(AGENT_COLUMNS).where('workspace_id', '=', ws).orderBy('created_at').execute();
}

export async function countAgentsOf(db: AgentsDb, ws: string): Promise<number> {
  return Number((await db.selectFrom('agents').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirstOrThrow()).n);
}

/** Agents whose name contains `search` (any case) or whose id or public id is `search`, optionally of one workspace. */
function matching(db: AgentsDb, search: string, workspace: string | undefined) {
  const like = `%${search.trim().toLowerCase()}%`;
  let q = db.selectFrom('agents').where((eb) => eb.or([eb(eb.fn('lower', ['name']), 'like', like), eb('id', '=', search), eb('public_id', '=', search)]));
  if (workspace) q = q.where('workspace_id', '=', workspace);
  return q;
}

export async function countAgentsMatching(db: AgentsDb, search: string, workspace: string | undefined): Promise<number> {
  return Number((await matching(db, search, workspace).select(countAll().as('n')).executeTakeFirstOrThrow()).n);
}

export async function agentsMatching(db: AgentsDb, search: string, workspace: string | undefined, limit: number, offset: number) {
  return matching(db, search, workspace).select(AGENT_COLUMNS).orderBy('created_at', 'desc').orderBy('id').limit(limit).offset(offset).execute();
}

/** How much one agent holds: sources, indexed passages, conversations, leads. */
export async function agentCounts(db: AgentsDb, agentId: string) {
  const [sources, passages, conversations, leads] = await Promise.all(
    (['sources', 'passages', 'conversations', 'leads'] as const).map(async (table) =>
      Number((await db.selectFrom(table).select(countAll().as('n')).where('agent_id', '=', agentId).executeTakeFirstOrThrow()).n),
    ),
  );
  return { sources, passages, conversations, leads };
}

/** Changes only the fields given. */
export async function updateAgentFlags(db: AgentsDb, id: string, patch: { status?: string; visibility?: string }, now: number): Promise<void> {
  await db
    .updateTable('agents')
    .set({ ...(patch.status !== undefined ? { status: patch.status } : {}), ...(patch.visibility !== undefined ? { visibility: patch.visibility } : {}), updated_at: now })
    .where('id', '=', id)
    .execute();
}
