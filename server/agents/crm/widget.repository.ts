import type { AgentsDb } from '../schema';

/** Stores an agent's widget configuration (a JSON document). */
export async function saveWidgetConfig(db: AgentsDb, ws: string, agentId: string, widget: string): Promise<void> {
  await db.updateTable('agents').set({ widget, updated_at: Date.now() }).where('id', '=', agentId).where('workspace_id', '=', ws).execute();
}
