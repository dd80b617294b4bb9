import { AgentQuery, IdParam } from '../../../shared/api/contracts/agents-common';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent } from '../agents/agents.service';
import { addSocial, addSource, deleteSource, getSource, listSources, presentSource, retrain, summary, updateSource } from './sources.service';

import { sourcesResponses } from '../../../shared/api/contracts/agents-knowledge';
import { sourcesRequests } from '../../../shared/api/contracts/agents-knowledge-requests';

export function sourceRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/sources', response: sourcesResponses['GET /api/sources'],
      auth: 'bearer',
      query: sourcesRequests['GET /api/sources'].query,
      handler: async ({ caller, query }) => {
        const agent = await selectAgent(ctx, caller.ws, query.agent);
        return { agentId: agent.id, sources: (await listSources(ctx, caller.ws, agent.id, query.type)).map((s) => presentSource(s)) };
      },
    }),
    route({
      method: 'get',
      path: '/api/sources/summary', response: sourcesResponses['GET /api/sources/summary'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => summary(ctx, caller.ws, await selectAgent(ctx, caller.ws, query.agent)),
    }),
    route({
      method: 'post',
      path: '/api/sources/social', response: sourcesResponses['POST /api/sources/social'],
      auth: 'editor',
      query: AgentQuery,
      body: sourcesRequests['POST /api/sources/social'].body,
      handler: async ({ caller, query, body }) => {
        const agent = await selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        const s = await addSocial(ctx, agent, body.url, body.platform);
        return { source: presentSource(s, true), avatar_url: (await getAgent(ctx, caller.ws, agent.id)).avatar_url || null };
      },
    }),
    route({
      method: 'post',
      path: '/api/sources/retrain', response: sourcesResponses['POST /api/sources/retrain'],
      auth: 'editor',
      query: AgentQuery,
      body: sourcesRequests['POST /api/sources/retrain'].body,
      handler: async ({ caller, query, body }) => ({ ok: true, ...(await retrain(ctx, caller.ws, (await selectAgent(ctx, caller.ws, body.agentId ?? query.agent)).id)) }),
    }),
    route({
      method: 'get',
      path: '/api/sources/:id', response: sourcesResponses['GET /api/sources/:id'],
      auth: 'bearer',
      params: IdParam,
      handler: async ({ caller, params }) => ({ source: presentSource(await getSource(ctx, caller.ws, params.id), true) }),
    }),
    route({
      method: 'post',
      path: '/api/sources', response: sourcesResponses['POST /api/sources'],
      auth: 'editor',
      query: AgentQuery,
      body: sourcesRequests['POST /api/sources'].body,
      handler: async ({ caller, query, body }) => {
        const agent = await selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        return { source: presentSource(await addSource(ctx, agent, body), true) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/sources/:id', response: sourcesResponses['PATCH /api/sources/:id'],
      auth: 'editor',
      params: IdParam,
      body: sourcesRequests['PATCH /api/sources/:id'].body,
      handler: async ({ caller, params, body }) => ({ source: presentSource(await updateSource(ctx, caller.ws, params.id, body), true) }),
    }),
    route({
      method: 'delete',
      path: '/api/sources/:id', response: sourcesResponses['DELETE /api/sources/:id'],
      auth: 'editor',
      params: IdParam,
      handler: async ({ caller, params }) => {
        await deleteSource(ctx, caller.ws, params.id);
        return { ok: true };
      },
    }),
  ];
}
