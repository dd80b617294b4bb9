import type { Insertable, Updateable } from 'kysely';
import type { AgentsDb, BuilderWidgetsTable } from '../schema';

const COLUMNS = ['id', 'agent_id', 'name', 'code', 'schema', 'functions', 'states', 'mode', 'created_at', 'updated_at'] as const;

export async function builderWidgetById(db: AgentsDb, ws: string, id: string) {
  return db.selectFrom('builder_widgets').select(COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function listBuilderWidgets(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  let q = db.selectFrom('builder_widgets').select(COLUMNS).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export async function insertBuilderWidget(db: AgentsDb, row: Insertable<BuilderWidgetsTable>): Promise<void> {
  await db.insertInto('builder_widgets').values(row).execute();
}

export async function updateBuilderWidget(db: AgentsDb, ws: string, id: string, set: Updateable<BuilderWidgetsTable>): Promise<boolean> {
  const r = await db.updateTable('builder_widgets').set(set).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteBuilderWidget(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('builder_widgets').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
