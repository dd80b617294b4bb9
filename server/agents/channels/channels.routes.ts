import { z } from 'zod';
import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import { CHANNELS, type ChannelName } from './providers';
import { CHANNEL_NAMES, connectChannel, disconnectChannel, listChannels, testChannel, updateChannel } from './channels.service';
import { channelsResponses } from '../../../shared/api/contracts/agents-channels';
import { channelsRequests, channelParam } from '../../../shared/api/contracts/agents-channels-requests';

function channelOf(raw: string): ChannelName {
  if (raw === 'web') throw badRequest('the web channel needs no credentials');
  if (!(CHANNEL_NAMES as string[]).includes(raw)) throw notFound('unknown channel');
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
  return [
    route({
      method: 'get',
      path: '/api/channels', response: channelsResponses['GET /api/channels'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const a = await selectAgent(ctx, caller.ws, query.agent);
        return { agentId: a.id, channels: await listChannels(ctx, caller.ws, a.id) };
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
        const creds = parseCredentials(CHANNELS[name].credentials as z.ZodType<Record<string, string>>, body);
        return { channel: await connectChannel(ctx, caller.ws, a.id, name, creds) };
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
        return testChannel(ctx, caller.ws, a.id, name);
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
        if (body.disconnect || body.connected === false) return { channel: await disconnectChannel(ctx, caller.ws, a.id, name) };
        return { channel: await updateChannel(ctx, caller.ws, a.id, name, { enabled: body.enabled, config: body.config }) };
      },
    }),
  ];
}
