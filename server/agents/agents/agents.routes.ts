import { IdParam } from '../../../shared/api/contracts/agents-common';
import { AgentList, AgentOne, AgentTestReply, CompanyInfo, DefaultPrompt, Ok, PromptLibrary, SourceList, SourceOne, Trained } from '../../../shared/api/contracts/agents';
import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { paidTurn } from '../billing';
import { addSource, deleteSource, getSource, listSources, presentSource, retrain } from '../knowledge/sources.service';

import { fetchPublic } from '../knowledge/net-guard';
import { metaContent, pageTitle } from '../knowledge/text';
import { playgroundTurn } from '../chat/chat.service';
import { createAgent, deleteAgent, getAgent, listAgents, presentAgent, updateAgent } from './agents.service';
import { defaultPrompt, PROMPT_LIBRARY } from './persona';
import { agentsRequests, name } from '../../../shared/api/contracts/agents-agents-requests';

export function agentRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({ method: 'get', path: '/api/agents', response: AgentList, auth: 'bearer', handler: async ({ caller }) => ({ agents: await listAgents(ctx, caller.ws) }) }),
    route({
      method: 'post',
      path: '/api/agents', response: AgentOne,
      auth: 'editor',
      body: agentsRequests['POST /api/agents'].body,
      handler: async ({ caller, body }) => ({ agent: presentAgent(await createAgent(ctx, caller.ws, body)) }),
    }),
    route({
      method: 'get',
      path: '/api/agents/default-prompt', response: DefaultPrompt,
      auth: 'bearer',
      query: agentsRequests['GET /api/agents/default-prompt'].query,
      handler: ({ query }) => ({ prompt: defaultPrompt(query.name ?? 'the assistant', query.company ?? '', query.website ?? '') }),
    }),
    route({ method: 'get', path: '/api/agents/prompt-library', response: PromptLibrary, auth: 'bearer', handler: () => ({ genres: PROMPT_LIBRARY }) }),
    route({
      method: 'get',
      path: '/api/agents/company-info', response: CompanyInfo,
      auth: 'bearer',
      query: agentsRequests['GET /api/agents/company-info'].query,
      handler: async ({ query }) => {
        const raw = /^https?:\/\//i.test(query.url) ? query.url : `https://${query.url}`;
        const page = await fetchPublic(raw, { allowPrivate: ctx.config.allowPrivateFetch });
        const name = metaContent(page.body, 'og:site_name') || metaContent(page.body, 'og:title') || pageTitle(page.body);
        const bio = metaContent(page.body, 'og:description') || metaContent(page.body, 'description');
        const icon = metaContent(page.body, 'og:image') || /<link\b[^>]*rel=["'][^"']*icon[^"']*["'][^>]*href=["']([^"']+)["']/i.exec(page.body)?.[1] || '';
        return { name, bio, logo: icon ? new URL(icon, page.url).toString() : null, url: page.url };
      },
    }),
    route({ method: 'get', path: '/api/agents/:id', response: AgentOne, auth: 'bearer', params: IdParam, handler: async ({ caller, params }) => ({ agent: presentAgent(await getAgent(ctx, caller.ws, params.id)) }) }),
    route({
      method: 'patch',
      path: '/api/agents/:id', response: AgentOne,
      auth: 'editor',
      params: IdParam,
      body: agentsRequests['PATCH /api/agents/:id'].body,
      handler: async ({ caller, params, body }) => ({ agent: presentAgent(await updateAgent(ctx, caller.ws, params.id, body)) }),
    }),
    route({
      method: 'delete',
      path: '/api/agents/:id', response: Ok,
      auth: 'editor',
      params: IdParam,
      handler: async ({ caller, params }) => {
        await deleteAgent(ctx, caller.ws, params.id);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/agents/:id/test', response: AgentTestReply,
      auth: 'editor',
      params: IdParam,
      body: agentsRequests['POST /api/agents/:id/test'].body,
      handler: async ({ caller, params, body }) => {
        const agent = await getAgent(ctx, caller.ws, params.id);
        return await paidTurn(ctx, caller.ws, 'playground', () => playgroundTurn(ctx, agent, body));
      },
    }),
    route({ method: 'post', path: '/api/agents/:id/train', response: Trained, auth: 'editor', params: IdParam, handler: async ({ caller, params }) => ({ ok: true, ...(await retrain(ctx, caller.ws, params.id)) }) }),
    route({
      method: 'get',
      path: '/api/agents/:id/sources', response: SourceList,
      auth: 'bearer',
      params: IdParam,
      handler: async ({ caller, params }) => {
        const agent = await getAgent(ctx, caller.ws, params.id);
        return { sources: (await listSources(ctx, caller.ws, agent.id)).map((s) => presentSource(s)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/agents/:id/sources', response: SourceOne,
      auth: 'editor',
      params: IdParam,
      body: agentsRequests['POST /api/agents/:id/sources'].body,
      handler: async ({ caller, params, body }) => {
        const agent = await getAgent(ctx, caller.ws, params.id);
        return { source: presentSource(await addSource(ctx, agent, body), true) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/agents/:id/sources/:sid', response: Ok,
      auth: 'editor',
      params: agentsRequests['DELETE /api/agents/:id/sources/:sid'].params,
      handler: async ({ caller, params }) => {
        await getAgent(ctx, caller.ws, params.id);
        const s = await getSource(ctx, caller.ws, params.sid);
        if (s.agent_id !== params.id) return notFoundSource();
        await deleteSource(ctx, caller.ws, s.id);
        return { ok: true };
      },
    }),
  ];
}

function notFoundSource(): never {
  throw notFound('source not found');
}
