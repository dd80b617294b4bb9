import { z } from 'zod';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent } from '../agents/agents.service';
import { addSocial, addSource, deleteSource, getSource, listSources, presentSource, retrain, SOURCE_TYPES, summary, updateSource } from './sources.service';
import { sourceBody } from './sources.schema';
import { sourcesResponses } from '../../../shared/api/contracts/agents-knowledge';


const agentQuery = z.object({ agent: z.string().max(64).optional() });
const idParam = z.object({ id: z.string().max(64) });

export function sourceRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/sources', response: sourcesResponses['GET /api/sources'],
      auth: 'bearer',
      query: agentQuery.extend({ type: z.enum(SOURCE_TYPES).optional() }),
      handler: ({ caller, query }) => {
        const agent = selectAgent(ctx, caller.ws, query.agent);
        return { agentId: agent.id, sources: listSources(ctx, caller.ws, agent.id, query.type).map((s) => presentSource(s)) };
      },
    }),
    route({
      method: 'get',
      path: '/api/sources/summary', response: sourcesResponses['GET /api/sources/summary'],
      auth: 'bearer',
      query: agentQuery,
      handler: ({ caller, query }) => summary(ctx, caller.ws, selectAgent(ctx, caller.ws, query.agent)),
    }),
    route({
      method: 'post',
      path: '/api/sources/social', response: sourcesResponses['POST /api/sources/social'],
      auth: 'bearer',
      query: agentQuery,
      body: z.object({ url: z.string().trim().min(1, 'url is required').max(2_000), platform: z.string().trim().max(40).optional(), agentId: z.string().max(64).optional() }),
      handler: async ({ caller, query, body }) => {
        const agent = selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        const s = await addSocial(ctx, agent, body.url, body.platform);
        return { source: presentSource(s, true), avatar_url: getAgent(ctx, caller.ws, agent.id).avatar_url || null };
      },
    }),
    route({
      method: 'post',
      path: '/api/sources/retrain', response: sourcesResponses['POST /api/sources/retrain'],
      auth: 'bearer',
      query: agentQuery,
      body: z.object({ agentId: z.string().max(64).optional() }),
      handler: ({ caller, query, body }) => ({ ok: true, ...retrain(ctx, caller.ws, selectAgent(ctx, caller.ws, body.agentId ?? query.agent).id) }),
    }),
    route({
      method: 'get',
      path: '/api/sources/:id', response: sourcesResponses['GET /api/sources/:id'],
      auth: 'bearer',
      params: idParam,
      handler: ({ caller, params }) => ({ source: presentSource(getSource(ctx, caller.ws, params.id), true) }),
    }),
    route({
      method: 'post',
      path: '/api/sources', response: sourcesResponses['POST /api/sources'],
      auth: 'bearer',
      query: agentQuery,
      body: sourceBody.extend({ agentId: z.string().max(64).optional() }),
      handler: async ({ caller, query, body }) => {
        const agent = selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        return { source: presentSource(await addSource(ctx, agent, body), true) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/sources/:id', response: sourcesResponses['PATCH /api/sources/:id'],
      auth: 'bearer',
      params: idParam,
      body: z.object({
        name: z.string().trim().max(200).optional(),
        content: z.string().max(5_000_000).optional(),
        question: z.string().max(4_000).optional(),
        answer: z.string().max(20_000).optional(),
      }),
      handler: ({ caller, params, body }) => ({ source: presentSource(updateSource(ctx, caller.ws, params.id, body), true) }),
    }),
    route({
      method: 'delete',
      path: '/api/sources/:id', response: sourcesResponses['DELETE /api/sources/:id'],
      auth: 'bearer',
      params: idParam,
      handler: ({ caller, params }) => {
        deleteSource(ctx, caller.ws, params.id);
        return { ok: true };
      },
    }),
  ];
}
