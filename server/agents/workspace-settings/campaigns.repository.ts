import type { Insertable } from 'kysely';
import type { AgentsDb, CampaignsTable, CampaignTemplatesTable } from '../schema';

const TEMPLATE_COLUMNS = ['id', 'agent_id', 'name', 'type', 'body', 'created_at'] as const;
const CAMPAIGN_COLUMNS = ['id', 'agent_id', 'name', 'channel', 'replies_mode', 'template_id', 'audience', 'status', 'recipients', 'sent_at', 'created_at'] as const;

export async function templateById(db: AgentsDb, ws: string, id: string) {
  return db.selectFrom('campaign_templates').select(TEMPLATE_COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function listTemplates(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  let q = db.selectFrom('campaign_templates').select(TEMPLATE_COLUMNS).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export async function insertTemplate(db: AgentsDb, row: Insertable<CampaignTemplatesTable>): Promise<void> {
  await db.insertInto('campaign_templates').values(row).execute();
}

export async function campaignById(db: AgentsDb, ws: string, id: string) {
  return db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

export async function listCampaigns(db: AgentsDb, ws: string, agentId: string | undefined, limit: number) {
  let q = db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).where('workspace_id', '=', ws);
  if (agentId) q = q.where('agent_id', '=', agentId);
  return q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export async function insertCampaign(db: AgentsDb, row: Insertable<CampaignsTable>): Promise<void> {
  await db.insertInto('campaigns').values(row).execute();
}

/** Marks a draft sent; false when it was not a draft any more (sent by a concurrent request). */
export async function markSent(db: AgentsDb, ws: string, id: string, recipients: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('campaigns').set({ status: 'sent', recipients, sent_at: now, updated_at: now })
    .where('id', '=', id).where('workspace_id', '=', ws).where('status', '=', 'draft')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
