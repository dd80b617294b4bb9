import type { Insertable, Selectable } from 'kysely';
import type { AgentsDb, SourcesTable } from '../schema';
import type { SourceType } from '../../../shared/api/contracts/agents-values';

/** Knowledge sources of an agent. Every query names the workspace. */

export type SourceRecord = Omit<Selectable<SourcesTable>, 'type'> & { type: SourceType };

const SOURCE_COLUMNS = ['id', 'workspace_id', 'agent_id', 'type', 'name', 'content', 'url', 'question', 'answer', 'mime', 'size_kb', 'status', 'error', 'pages', 'created_at', 'updated_at'] as const;

export async function sourceById(db: AgentsDb, ws: string, id: string): Promise<SourceRecord | undefined> {
  return db.selectFrom('sources').select(SOURCE_COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).$narrowType<{ type: SourceType }>().executeTakeFirst();
}

export async function sourcesOfAgent(db: AgentsDb, ws: string, agentId: string, type?: string): Promise<SourceRecord[]> {
  let q = db.selectFrom('sources').select(SOURCE_COLUMNS).where('workspace_id', '=', ws).where('agent_id', '=', agentId);
  if (type) q = q.where('type', '=', type);
  return q.orderBy('created_at').orderBy('id').$narrowType<{ type: SourceType }>().execute();
}

export async function insertSource(db: AgentsDb, row: Insertable<SourcesTable>): Promise<void> {
  await db.insertInto('sources').values(row).execute();
}

export async function updateSourceText(db: AgentsDb, ws: string, id: string, s: { name: string; content: string; question: string; answer: string; size_kb: number }, now: number): Promise<void> {
  await db.updateTable('sources').set({ ...s, updated_at: now }).where('id', '=', id).where('workspace_id', '=', ws).execute();
}

/** A finished crawl: the text found (or none), how many pages, and the status it leads to. */
export async function storeCrawl(db: AgentsDb, ws: string, id: string, s: { content: string; pages: number; size_kb: number; status: string; error: string | null }, now: number): Promise<void> {
  await db.updateTable('sources').set({ ...s, updated_at: now }).where('id', '=', id).where('workspace_id', '=', ws).execute();
}

export async function markFailed(db: AgentsDb, ws: string, id: string, error: string, now: number): Promise<void> {
  await db.updateTable('sources').set({ status: 'failed', error, updated_at: now }).where('id', '=', id).where('workspace_id', '=', ws).execute();
}

export async function deleteSourceRow(db: AgentsDb, ws: string, id: string): Promise<void> {
  await db.deleteFrom('sources').where('id', '=', id).where('workspace_id', '=', ws).execute();
}
