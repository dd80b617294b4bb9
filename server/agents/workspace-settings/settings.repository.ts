import { dialectOf } from '../../core/db/database';
import type { AgentsDb } from '../schema';

export async function settingsOf(db: AgentsDb, agentId: string) {
  return db.selectFrom('agent_settings').select(['section', 'data']).where('agent_id', '=', agentId).execute();
}

export async function saveSection(db: AgentsDb, agentId: string, section: string, data: string, now: number): Promise<void> {
  await db
    .insertInto('agent_settings').values({ agent_id: agentId, section, data, updated_at: now })
    .onConflict((oc) => oc.columns(['agent_id', 'section']).doUpdateSet((eb) => ({ data: eb.ref('excluded.data'), updated_at: eb.ref('excluded.updated_at') })))
    .execute();
}

/** Holds the agent's row until the transaction ends so concurrent merges of its settings queue (PostgreSQL; SQLite's writer is single). */
export async function lockAgentSettings(tx: AgentsDb, agentId: string): Promise<void> {
  if (dialectOf(tx) === 'postgres') await tx.selectFrom('agents').select('id').where('id', '=', agentId).forUpdate().execute();
}
