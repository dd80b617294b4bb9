import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import { actionsResponses } from '../../../shared/api/contracts/agents-channels';
import { actionTypeParam, actionsRequests } from '../../../shared/api/contracts/agents-channels-requests';
import { ACTION_TYPES, configureAction, listActions, toggleAction, type ActionType } from './actions.service';

function typeOf(raw: string): ActionType {
  if (!(ACTION_TYPES as string[]).includes(raw)) throw notFound('unknown action');
  return raw as ActionType;
}

export function actionRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/actions', response: actionsResponses['GET /api/actions'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const a = await selectAgent(ctx, caller.ws, query.agent);
        return { agentId: a.id, actions: await listActions(ctx, a.id) };
      },
    }),
    route({
      method: 'post',
      path: '/api/actions/:type/toggle', response: actionsResponses['POST /api/actions/:type/toggle'],
      auth: 'editor',
      params: actionTypeParam,
      query: AgentQuery,
      body: actionsRequests['POST /api/actions/:type/toggle'].body,
      handler: async ({ caller, params: p, query, body }) => {
        const type = typeOf(p.type);
        const a = await selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        return { action: await toggleAction(ctx, a.id, type, body.enabled) };
      },
    }),
    route({
      method: 'post',
      path: '/api/actions/:type/config', response: actionsResponses['POST /api/actions/:type/config'],
      auth: 'editor',
      params: actionTypeParam,
      query: AgentQuery,
      body: actionsRequests['POST /api/actions/:type/config'].body,
      handler: async ({ caller, params: p, query, body }) => {
        const type = typeOf(p.type);
        const a = await selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        return { action: await configureAction(ctx, a.id, type, { config: body.config, enabled: body.enabled }) };
      },
    }),
  ];
}
