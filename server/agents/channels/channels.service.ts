import { badRequest, conflict } from '../../core/errors';
import type { AgentsContext } from '../context';
import { openCredentials } from './delivery';
import { CHANNELS, validatorOf, type ChannelName, type Check } from './providers';
import { secretBox } from './secret-box';
import { connectionOf, deleteConnection, recordConnectionCheck, saveConnection, slackTeamHeldByOther, updateConnectionSettings, type ConnectionRow } from './connections.repository';

const iso = (t: number | null | undefined) => (typeof t === 'number' ? new Date(t).toISOString() : null);
const parse = (s: string) => JSON.parse(s) as Record<string, unknown>;
export const CHANNEL_NAMES = Object.keys(CHANNELS) as ChannelName[];

/** Per-agent state of a channel; credentials never leave the server. */
function present(name: ChannelName, c: ConnectionRow | undefined) {
  const spec = CHANNELS[name];
  return {
    id: name, name: spec.name, description: spec.description, fields: spec.fields,
    connected: Boolean(c), enabled: Boolean(c?.enabled), status: c ? c.status : 'disconnected',
    account: c ? parse(c.account) : null, config: c ? parse(c.config) : {}, error: c?.error ?? null,
    connected_at: iso(c?.connected_at), checked_at: iso(c?.checked_at),
  };
}
const WEB = { id: 'web', name: 'Website widget', description: 'The embeddable chat widget (always on).', fields: [], builtin: true, connected: true, enabled: true, status: 'connected', account: null, config: {}, error: null };

const stateOf = async (ctx: AgentsContext, ws: string, agentId: string, name: ChannelName) => present(name, await connectionOf(ctx.db, ws, agentId, name));

export async function listChannels(ctx: AgentsContext, ws: string, agentId: string) {
  const states = [];
  for (const n of CHANNEL_NAMES) states.push(await stateOf(ctx, ws, agentId, n));
  return [WEB, ...states];
}

/** Credentials already checked by the provider's schema: checked live, then stored sealed. */
export async function connectChannel(ctx: AgentsContext, ws: string, agentId: string, name: ChannelName, creds: Record<string, string>) {
  const check = await validatorOf(CHANNELS[name])(ctx.config, creds);
  if (!check.ok) throw badRequest(check.error);
  if (name === 'slack' && check.account.team_id && (await slackTeamHeldByOther(ctx.db, check.account.team_id, agentId))) {
    throw conflict('this Slack workspace is already connected to another agent');
  }
  await saveConnection(ctx.db, { ws, agentId, channel: name, credentials: secretBox(ctx.config).seal(JSON.stringify(creds)), account: JSON.stringify(check.account), now: Date.now() });
  return stateOf(ctx, ws, agentId, name);
}

export async function testChannel(ctx: AgentsContext, ws: string, agentId: string, name: ChannelName) {
  const c = await connectionOf(ctx.db, ws, agentId, name);
  if (!c) throw badRequest('channel is not connected');
  const creds = openCredentials(ctx, c.credentials);
  const check: Check = creds ? await validatorOf(CHANNELS[name])(ctx.config, creds) : { ok: false, error: 'stored credentials cannot be read' };
  await recordConnectionCheck(ctx.db, ws, agentId, name, {
    status: check.ok ? 'connected' : 'error', error: check.ok ? null : check.error, account: check.ok ? JSON.stringify(check.account) : null, at: Date.now(),
  });
  return { ok: check.ok, error: check.ok ? null : check.error, channel: await stateOf(ctx, ws, agentId, name) };
}

export async function disconnectChannel(ctx: AgentsContext, ws: string, agentId: string, name: ChannelName) {
  await deleteConnection(ctx.db, ws, agentId, name);
  return present(name, undefined);
}

/** Enable/disable and merge settings into the config of a connected channel. */
export async function updateChannel(ctx: AgentsContext, ws: string, agentId: string, name: ChannelName, change: { enabled?: boolean; config?: Record<string, unknown> }) {
  const c = await connectionOf(ctx.db, ws, agentId, name);
  if (!c) throw badRequest('channel is not connected');
  const config = change.config ? { ...parse(c.config), ...change.config } : parse(c.config);
  await updateConnectionSettings(ctx.db, ws, agentId, name, { enabled: change.enabled === undefined ? c.enabled : Number(change.enabled), config: JSON.stringify(config) });
  return stateOf(ctx, ws, agentId, name);
}
