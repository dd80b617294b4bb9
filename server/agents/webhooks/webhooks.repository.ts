import type { Selectable } from 'kysely';
import { dialectOf } from '../../core/db/database';
import type { AgentsDb, WebhooksTable } from '../schema';
import { countAll } from '../sql';

/** A workspace's webhook endpoints and its signing secret. */

export type WebhookRow = Selectable<WebhooksTable>;

const WEBHOOK = ['id', 'workspace_id', 'agent_id', 'url', 'events', 'created_at'] as const;

export async function webhookOf(db: AgentsDb, ws: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').select(WEBHOOK).where('workspace_id', '=', ws).where('id', '=', id).executeTakeFirst();
}

/** The workspace's endpoints; with an agent, those of that agent and those covering the whole workspace. */
export async function listWebhooks(db: AgentsDb, ws: string, agentId: string | null): Promise<WebhookRow[]> {
  let q = db.selectFrom('webhooks').select(WEBHOOK).where('workspace_id', '=', ws);
  if (agentId) q = q.where((eb) => eb.or([eb('agent_id', 'is', null), eb('agent_id', '=', agentId)]));
  return q.orderBy('created_at').orderBy('id').execute();
}

/**
 * Add an endpoint unless the workspace already has `max`: answers false then. The count and the insert are
 * one transaction; on PostgreSQL the workspace row is locked first, so two concurrent creates cannot both pass.
 */
export async function insertWebhookWithin(db: AgentsDb, w: WebhookRow, max: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    if (dialectOf(tx) === 'postgres') await tx.selectFrom('workspaces').select('id').where('id', '=', w.workspace_id).forUpdate().executeTakeFirst();
    const { n } = await tx.selectFrom('webhooks').select(countAll().as('n')).where('workspace_id', '=', w.workspace_id).executeTakeFirstOrThrow();
    if (Number(n) >= max) return false;
    await tx.insertInto('webhooks').values(w).execute();
    return true;
  });
}

export async function deleteWebhook(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('webhooks').where('workspace_id', '=', ws).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function sealedSecretOf(db: AgentsDb, ws: string): Promise<string | null> {
  const r = await db.selectFrom('webhook_secrets').select('secret').where('workspace_id', '=', ws).executeTakeFirst();
  return r?.secret ?? null;
}

/** Store the workspace's secret unless one exists (the first writer wins; everyone reads that one back). */
export async function insertSecretIfAbsent(db: AgentsDb, ws: string, sealed: string, now: number): Promise<void> {
  await db.insertInto('webhook_secrets').values({ workspace_id: ws, secret: sealed, created_at: now }).onConflict((oc) => oc.column('workspace_id').doNothing()).execute();
}
