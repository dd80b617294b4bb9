import type { AgentsDb } from '../schema';

/** An agent's actions (collect leads, hand off, book a meeting, call an API): enabled flag and config, per agent. */

export async function actionOf(db: AgentsDb, agentId: string, type: string) {
  return db.selectFrom('agent_actions').select(['enabled', 'config']).where('agent_id', '=', agentId).where('type', '=', type).executeTakeFirst();
}

export async function saveAction(db: AgentsDb, a: { agentId: string; type: string; enabled: number; config: string; now: number }): Promise<void> {
  await db
    .insertInto('agent_actions')
    .values({ agent_id: a.agentId, type: a.type, enabled: a.enabled, config: a.config, updated_at: a.now })
    .onConflict((oc) => oc.columns(['agent_id', 'type']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled'), config: eb.ref('excluded.config'), updated_at: eb.ref('excluded.updated_at') })))
    .execute();
}
