import type { Selectable } from 'kysely';
import type { AgentsDb, ChannelConnectionsTable } from '../schema';
import { jsonField } from '../sql';

/** Channel connections (one per agent and channel) and the outside threads their conversations belong to. */

export type ConnectionRow = Selectable<ChannelConnectionsTable>;

const CONNECTION = ['agent_id', 'channel', 'workspace_id', 'enabled', 'status', 'credentials', 'account', 'config', 'error', 'connected_at', 'checked_at'] as const;

export async function connectionOf(db: AgentsDb, ws: string, agentId: string, channel: string): Promise<ConnectionRow | undefined> {
  return db.selectFrom('channel_connections').select(CONNECTION).where('workspace_id', '=', ws).where('agent_id', '=', agentId).where('channel', '=', channel).executeTakeFirst();
}

/** Whether another agent (in any workspace) holds this Slack team: a team answers through one agent. */
export async function slackTeamHeldByOther(db: AgentsDb, teamId: string, agentId: string): Promise<boolean> {
  const r = await db
    .selectFrom('channel_connections').select('agent_id')
    .where('channel', '=', 'slack').where(jsonField(db, 'account', 'team_id'), '=', teamId).where('agent_id', '<>', agentId)
    .limit(1).executeTakeFirst();
  return r !== undefined;
}

/** The enabled connection a provider callback addresses by its account field (Slack team, WhatsApp number). */
export async function enabledConnectionByAccount(db: AgentsDb, channel: string, key: 'team_id' | 'phone_number_id', value: string) {
  return db
    .selectFrom('channel_connections').select(['agent_id', 'workspace_id'])
    .where('channel', '=', channel).where('enabled', '=', 1).where(jsonField(db, 'account', key), '=', value)
    .orderBy('connected_at').orderBy('agent_id').limit(1).executeTakeFirst();
}

/** Connect (or reconnect with new credentials): enabled, connected, the earlier error cleared; config is kept. */
export async function saveConnection(db: AgentsDb, c: { ws: string; agentId: string; channel: string; credentials: string; account: string; now: number }): Promise<void> {
  await db
    .insertInto('channel_connections')
    .values({ agent_id: c.agentId, channel: c.channel, workspace_id: c.ws, enabled: 1, status: 'connected', credentials: c.credentials, account: c.account, config: '{}', error: null, connected_at: c.now, checked_at: c.now })
    .onConflict((oc) => oc.columns(['agent_id', 'channel']).doUpdateSet((eb) => ({
      enabled: 1, status: 'connected', credentials: eb.ref('excluded.credentials'), account: eb.ref('excluded.account'), error: null,
      connected_at: eb.ref('excluded.connected_at'), checked_at: eb.ref('excluded.checked_at'),
    })))
    .execute();
}

/** The outcome of a live credential check; the account is replaced only when the check passed. */
export async function recordConnectionCheck(db: AgentsDb, ws: string, agentId: string, channel: string, check: { status: string; error: string | null; account: string | null; at: number }): Promise<void> {
  await db
    .updateTable('channel_connections')
    .set({ status: check.status, error: check.error, checked_at: check.at, ...(check.account === null ? {} : { account: check.account }) })
    .where('workspace_id', '=', ws).where('agent_id', '=', agentId).where('channel', '=', channel)
    .execute();
}

export async function updateConnectionSettings(db: AgentsDb, ws: string, agentId: string, channel: string, s: { enabled: number; config: string }): Promise<void> {
  await db.updateTable('channel_connections').set({ enabled: s.enabled, config: s.config }).where('workspace_id', '=', ws).where('agent_id', '=', agentId).where('channel', '=', channel).execute();
}

export async function deleteConnection(db: AgentsDb, ws: string, agentId: string, channel: string): Promise<void> {
  await db.deleteFrom('channel_connections').where('workspace_id', '=', ws).where('agent_id', '=', agentId).where('channel', '=', channel).execute();
}

/** The outside thread (Slack channel:thread, WhatsApp number) a conversation came from. */
export async function threadOfConversation(db: AgentsDb, conversationId: string) {
  return db.selectFrom('channel_threads').select(['agent_id', 'channel', 'external_ref']).where('conversation_id', '=', conversationId).executeTakeFirst();
}

/** The conversation an outside thread continues, if any. */
export async function conversationOfThread(db: AgentsDb, agentId: string, channel: string, ref: string): Promise<string | null> {
  const r = await db.selectFrom('channel_threads').select('conversation_id').where('agent_id', '=', agentId).where('channel', '=', channel).where('external_ref', '=', ref).executeTakeFirst();
  return r?.conversation_id ?? null;
}

/** Remember the thread of a new conversation (the first writer wins when two messages of one thread race). */
export async function insertThread(db: AgentsDb, t: { conversationId: string; agentId: string; channel: string; ref: string; now: number }): Promise<void> {
  await db
    .insertInto('channel_threads')
    .values({ conversation_id: t.conversationId, agent_id: t.agentId, channel: t.channel, external_ref: t.ref, created_at: t.now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
