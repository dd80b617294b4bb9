import type { Selectable } from 'kysely';
import type { AgentsDb, IntegrationsTable } from '../schema';

/** CRM integrations of a workspace (one per provider). */

export type IntegrationRow = Selectable<IntegrationsTable>;

const INTEGRATION = ['workspace_id', 'provider', 'status', 'credentials', 'account', 'error', 'connected_at', 'checked_at', 'last_sync_at', 'last_sync_error'] as const;

export async function integrationOf(db: AgentsDb, ws: string, provider: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').select(INTEGRATION).where('workspace_id', '=', ws).where('provider', '=', provider).executeTakeFirst();
}

export async function connectedIntegrations(db: AgentsDb, ws: string) {
  return db.selectFrom('integrations').select(['provider', 'credentials']).where('workspace_id', '=', ws).where('status', '=', 'connected').orderBy('provider').execute();
}

/** Connect (or reconnect with new credentials); the last sync outcome is kept. */
export async function saveIntegration(db: AgentsDb, i: { ws: string; provider: string; credentials: string; account: string; now: number }): Promise<void> {
  await db
    .insertInto('integrations')
    .values({ workspace_id: i.ws, provider: i.provider, status: 'connected', credentials: i.credentials, account: i.account, error: null, connected_at: i.now, checked_at: i.now })
    .onConflict((oc) => oc.columns(['workspace_id', 'provider']).doUpdateSet((eb) => ({
      status: 'connected', credentials: eb.ref('excluded.credentials'), account: eb.ref('excluded.account'), error: null,
      connected_at: eb.ref('excluded.connected_at'), checked_at: eb.ref('excluded.checked_at'),
    })))
    .execute();
}

/** The outcome of a live credential check; the account is replaced only when the check passed. */
export async function recordIntegrationCheck(db: AgentsDb, ws: string, provider: string, check: { status: string; error: string | null; account: string | null; at: number }): Promise<void> {
  await db
    .updateTable('integrations')
    .set({ status: check.status, error: check.error, checked_at: check.at, ...(check.account === null ? {} : { account: check.account }) })
    .where('workspace_id', '=', ws).where('provider', '=', provider)
    .execute();
}

export async function recordIntegrationSync(db: AgentsDb, ws: string, provider: string, at: number, error: string | null): Promise<void> {
  await db.updateTable('integrations').set({ last_sync_at: at, last_sync_error: error }).where('workspace_id', '=', ws).where('provider', '=', provider).execute();
}

/** Answers whether there was one to remove. */
export async function deleteIntegration(db: AgentsDb, ws: string, provider: string): Promise<boolean> {
  const r = await db.deleteFrom('integrations').where('workspace_id', '=', ws).where('provider', '=', provider).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
