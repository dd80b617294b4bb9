import { z } from 'zod';
import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import { badRequest, conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import { connection, openCredentials, type ConnectionRow } from './delivery';
import { CHANNELS, validatorOf, type ChannelName, type Check } from './providers';
import { secretBox } from './secret-box';
import { jsonText } from '../db';
import { channelsResponses } from '../../../shared/api/contracts/agents-channels';
import { channelsRequests, channelParam } from '../../../shared/api/contracts/agents-channels-requests';

const channelsIso = (t: number | null | undefined) => (typeof t === 'number' ? new Date(t).toISOString() : null);
const parse = (s: string) => JSON.parse(s) as Record<string, unknown>;
const channelsNAMES = Object.keys(CHANNELS) as ChannelName[];

/** Per-agent state of a channel; credentials never leave the server. */
function channelsPresent(name: ChannelName, c: ConnectionRow | undefined) {
  const spec = CHANNELS[name];
  return {
    id: name, name: spec.name, description: spec.description, fields: spec.fields,
    connected: Boolean(c), enabled: Boolean(c?.enabled), status: c ? c.status : 'disconnected',
    account: c ? parse(c.account) : null, config: c ? parse(c.config) : {}, error: c?.error ?? null,
    connected_at: channelsIso(c?.connected_at), checked_at: channelsIso(c?.checked_at),
  };
}
const WEB = { id: 'web', name: 'Website widget', description: 'The embeddable chat widget (always on).', fields: [], builtin: true, connected: true, enabled: true, status: 'connected', account: null, config: {}, error: null };

function channelOf(raw: string): ChannelName {
  if (raw === 'web') throw badRequest('the web channel needs no credentials');
  if (!(channelsNAMES as string[]).includes(raw)) throw notFound('unknown channel');
  return raw as ChannelName;
}

/** A provider field error reads like the platform's other validation errors. */
function parseCredentials<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.map(String).join('.');
  const given = (body as Record<string, unknown>)[field];
  throw badRequest(given === undefined ? `${field} is required` : `${field}: ${issue.message}`);
}

export function channelRoutes(ctx: AgentsContext): AgentRoute[] {
  const box = () => secretBox(ctx.config);
  const list = (agentId: string) => [WEB, ...channelsNAMES.map((n) => channelsPresent(n, connection(ctx, agentId, n)))];
  return [
    route({
      method: 'get',
      path: '/api/channels', response: channelsResponses['GET /api/channels'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const a = await selectAgent(ctx, caller.ws, query.agent);
        return { agentId: a.id, channels: list(a.id) };
      },
    }),
    route({
      method: 'post',
      path: '/api/channels/:channel/connect', response: channelsResponses['POST /api/channels/:channel/connect'],
      auth: 'editor',
      params: channelParam,
      query: AgentQuery,
      body: channelsRequests['POST /api/channels/:channel/connect'].body,
      handler: async ({ caller, params, query, body }) => {
        const name = channelOf(params.channel);
        const a = await selectAgent(ctx, caller.ws, typeof body.agentId === 'string' ? body.agentId : query.agent);
        const spec = CHANNELS[name];
        const creds = parseCredentials(spec.credentials as z.ZodType<Record<string, string>>, body);
        const check = await validatorOf(spec)(ctx.config, creds);
        if (!check.ok) throw badRequest(check.error);
        if (name === 'slack' && check.account.team_id) {
          const taken = ctx.legacyDb.prepare(`SELECT agent_id FROM channel_connections WHERE channel = 'slack' AND ${jsonText(ctx.legacyDb, 'account', 'team_id')} = ? AND agent_id <> ?`).get(check.account.team_id, a.id);
          if (taken) throw conflict('this Slack workspace is already connected to another agent');
        }
        const now = Date.now();
        ctx.legacyDb
          .prepare(`INSERT INTO channel_connections (agent_id, channel, workspace_id, enabled, status, credentials, account, config, error, connected_at, checked_at)
                    VALUES (?, ?, ?, 1, 'connected', ?, ?, '{}', NULL, ?, ?)
                    ON CONFLICT(agent_id, channel) DO UPDATE SET enabled = 1, status = 'connected', credentials = excluded.credentials, account = excluded.account, error = NULL, connected_at = excluded.connected_at, checked_at = excluded.checked_at`)
          .run(a.id, name, caller.ws, box().seal(JSON.stringify(creds)), JSON.stringify(check.account), now, now);
        return { channel: channelsPresent(name, connection(ctx, a.id, name)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/channels/:channel/test', response: channelsResponses['POST /api/channels/:channel/test'],
      auth: 'editor',
      params: channelParam,
      query: AgentQuery,
      handler: async ({ caller, params, query }) => {
        const name = channelOf(params.channel);
        const a = await selectAgent(ctx, caller.ws, query.agent);
        const c = connection(ctx, a.id, name);
        if (!c) throw badRequest('channel is not connected');
        const creds = openCredentials(ctx, c.credentials);
        const spec = CHANNELS[name];
        const check: Check = creds ? await validatorOf(spec)(ctx.config, creds) : { ok: false, error: 'stored credentials cannot be read' };
        ctx.legacyDb
          .prepare('UPDATE channel_connections SET status = ?, error = ?, account = COALESCE(?, account), checked_at = ? WHERE agent_id = ? AND channel = ?')
          .run(check.ok ? 'connected' : 'error', check.ok ? null : check.error, check.ok ? JSON.stringify(check.account) : null, Date.now(), a.id, name);
        return { ok: check.ok, error: check.ok ? null : check.error, channel: channelsPresent(name, connection(ctx, a.id, name)) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/channels/:channel', response: channelsResponses['PATCH /api/channels/:channel'],
      auth: 'editor',
      params: channelParam,
      query: AgentQuery,
      body: channelsRequests['PATCH /api/channels/:channel'].body,
      handler: async ({ caller, params, query, body }) => {
        const name = channelOf(params.channel);
        const a = await selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        const c = connection(ctx, a.id, name);
        if (body.disconnect || body.connected === false) {
          if (c) ctx.legacyDb.prepare('DELETE FROM channel_connections WHERE agent_id = ? AND channel = ?').run(a.id, name);
          return { channel: channelsPresent(name, undefined) };
        }
        if (!c) throw badRequest('channel is not connected');
        const config = body.config ? { ...parse(c.config), ...body.config } : parse(c.config);
        ctx.legacyDb
          .prepare('UPDATE channel_connections SET enabled = ?, config = ? WHERE agent_id = ? AND channel = ?')
          .run(body.enabled === undefined ? c.enabled : Number(body.enabled), JSON.stringify(config), a.id, name);
        return { channel: channelsPresent(name, connection(ctx, a.id, name)) };
      },
    }),
  ];
}
