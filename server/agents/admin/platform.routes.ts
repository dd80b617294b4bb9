import { IdParam } from '../../../shared/api/contracts/agents-common';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { audit, paging } from './guard';
import { activity, diagnostics, revenue, stats } from './overview.service';
import { agentById, agentDetail, editAgent, editWorkspace, removeAgent, searchAgents, searchWorkspaces, workspaceDetail } from './directory.service';
import { platformResponses } from '../../../shared/api/contracts/agents-admin';
import { platformRequests, platformListQuery } from '../../../shared/api/contracts/agents-admin-requests';

/** Operator overview and the workspace and agent directories. */
export function adminPlatformRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  return [
    route({ ...admin, method: 'get', path: '/api/admin/revenue', response: platformResponses['GET /api/admin/revenue'], handler: () => revenue(ctx) }),
    route({ ...admin, method: 'get', path: '/api/admin/stats', response: platformResponses['GET /api/admin/stats'], handler: () => stats(ctx) }),
    route({ ...admin, method: 'get', path: '/api/admin/activity', response: platformResponses['GET /api/admin/activity'], query: platformRequests['GET /api/admin/activity'].query, handler: async ({ query }) => ({ activity: await activity(ctx, query.limit) }) }),
    route({ ...admin, method: 'get', path: '/api/admin/llm-diagnostics', response: platformResponses['GET /api/admin/llm-diagnostics'], handler: () => diagnostics(ctx) }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/workspaces', response: platformResponses['GET /api/admin/workspaces'],
      query: platformListQuery,
      handler: async ({ query }) => {
        const { limit, page, offset } = paging(query);
        const { workspaces, total } = await searchWorkspaces(ctx, query.search ?? '', limit, offset);
        return { workspaces, total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/workspaces/:id', response: platformResponses['GET /api/admin/workspaces/:id'],
      params: IdParam,
      handler: async ({ params }) => ({ workspace: await workspaceDetail(ctx, params.id) }),
    }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/workspaces/:id', response: platformResponses['PATCH /api/admin/workspaces/:id'],
      params: IdParam,
      body: platformRequests['PATCH /api/admin/workspaces/:id'].body,
      handler: async ({ caller, params, body }) => {
        const workspace = await editWorkspace(ctx, params.id, body);
        await audit(ctx, caller, 'workspace.update', 'workspace', workspace.id, body);
        return { workspace };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/agents', response: platformResponses['GET /api/admin/agents'],
      query: platformListQuery,
      handler: async ({ query }) => {
        const { limit, page, offset } = paging(query);
        const { agents, total } = await searchAgents(ctx, query.search ?? '', query.workspace, limit, offset);
        return { agents, total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/agents/:id', response: platformResponses['GET /api/admin/agents/:id'],
      params: IdParam,
      handler: ({ params }) => agentDetail(ctx, params.id),
    }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/agents/:id', response: platformResponses['PATCH /api/admin/agents/:id'],
      params: IdParam,
      body: platformRequests['PATCH /api/admin/agents/:id'].body,
      handler: async ({ caller, params, body }) => {
        const a = await agentById(ctx, params.id);
        const agent = await editAgent(ctx, a, body);
        await audit(ctx, caller, 'agent.update', 'agent', a.id, body);
        return { agent };
      },
    }),
    route({
      ...admin,
      method: 'delete',
      path: '/api/admin/agents/:id', response: platformResponses['DELETE /api/admin/agents/:id'],
      params: IdParam,
      handler: async ({ caller, params }) => {
        const a = await agentById(ctx, params.id);
        await removeAgent(ctx, a);
        await audit(ctx, caller, 'agent.delete', 'agent', a.id, { name: a.name, workspaceId: a.workspace_id });
        return { ok: true };
      },
    }),
  ];
}
