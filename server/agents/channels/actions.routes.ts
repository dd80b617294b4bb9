import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import { actionsResponses } from '../../../shared/api/contracts/agents-channels';
import { ACTIONS, actionTypeParam, actionsRequests } from '../../../shared/api/contracts/agents-channels-requests';

type ActionType = keyof typeof ACTIONS;
const TYPES = Object.keys(ACTIONS) as ActionType[];

function typeOf(raw: string): ActionType {
  if (!(TYPES as string[]).includes(raw)) throw notFound('unknown action');
  return raw as ActionType;
}

export function actionRoutes(ctx: AgentsContext): AgentRoute[] {
  const row = (agentId: string, type: ActionType) =>
    ctx.legacyDb.prepare('SELECT enabled, config FROM agent_actions WHERE agent_id = ? AND type = ?').get(agentId, type) as { enabled: number; config: string } | undefined;
  const configOf = (agentId: string, type: ActionType): Record<string, unknown> => {
    const r = row(agentId, type);
    const parsed = ACTIONS[type].config.safeParse(r ? JSON.parse(r.config) : {});
    return parsed.success ? parsed.data : ACTIONS[type].config.parse({});
  };
  const present = (agentId: string, type: ActionType) => {
    const spec = ACTIONS[type];
    return { type, name: spec.name, description: spec.description, requires: spec.requires, enabled: Boolean(row(agentId, type)?.enabled), config: configOf(agentId, type) };
  };
  const save = (agentId: string, type: ActionType, enabled: boolean, config: Record<string, unknown>) => {
    const missing = ACTIONS[type].requires.find((k) => !config[k]);
    if (enabled && missing) throw badRequest(`config.${missing} is required before ${type} can be enabled`);
    ctx.legacyDb
      .prepare('INSERT INTO agent_actions (agent_id, type, enabled, config, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(agent_id, type) DO UPDATE SET enabled = excluded.enabled, config = excluded.config, updated_at = excluded.updated_at')
      .run(agentId, type, Number(enabled), JSON.stringify(config), Date.now());
  };
  return [
    route({
      method: 'get',
      path: '/api/actions', response: actionsResponses['GET /api/actions'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const a = await selectAgent(ctx, caller.ws, query.agent);
        return { agentId: a.id, actions: TYPES.map((t) => present(a.id, t)) };
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
        save(a.id, type, body.enabled, configOf(a.id, type));
        return { action: present(a.id, type) };
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
        const merged = ACTIONS[type].config.safeParse({ ...configOf(a.id, type), ...body.config });
        if (!merged.success) {
          const issue = merged.error.issues[0];
          throw badRequest(`config.${issue.path.map(String).join('.')}: ${issue.message}`);
        }
        save(a.id, type, body.enabled ?? Boolean(row(a.id, type)?.enabled), merged.data);
        return { action: present(a.id, type) };
      },
    }),
  ];
}
