import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent, type AgentRow } from '../agents/agents.service';
import { iso } from './table';
import { widgetConfig } from './widget';
import {
  builderWidget, createAttribute, createBuilderWidget, listAttributes, listBuilderWidgets, removeAttribute, removeBuilderWidget, saveWidget, updateBuilderWidget,
} from './widgets.service';
import { widgetResponses } from '../../../shared/api/contracts/agents-crm';
import { widgetRequests } from '../../../shared/api/contracts/agents-crm-requests';

function embedSnippet(ctx: AgentsContext, a: AgentRow): string {
  return `<script src="${ctx.config.appUrl}/widget.js" data-agent="${a.public_id}" async></script>`;
}

type AttributeRow = Awaited<ReturnType<typeof createAttribute>>;
const presentAttr = (r: AttributeRow) => ({ id: r.id, agentId: r.agent_id, name: r.name, type: r.type, label: r.label, description: r.description, created_at: iso(r.created_at) });

const parse = (v: unknown) => {
  try {
    return JSON.parse(String(v)) as unknown;
  } catch {
    return null;
  }
};
type BuilderWidgetRow = Awaited<ReturnType<typeof builderWidget>>;
const presentWidget = (r: BuilderWidgetRow) => ({
  id: r.id, agentId: r.agent_id, name: r.name, code: r.code, schema: parse(r.schema), functions: parse(r.functions), states: parse(r.states), mode: r.mode,
  created_at: iso(r.created_at), updated_at: iso(r.updated_at),
});

export function widgetRoutes(ctx: AgentsContext): AgentRoute[] {
  const agentOf = async (ws: string, id?: string) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  const show = (a: AgentRow) => ({ agentId: a.id, publicId: a.public_id, widget: widgetConfig(a), embed: embedSnippet(ctx, a) });
  return [
    route({
      method: 'get', path: '/api/attributes', response: widgetResponses['GET /api/attributes'], auth: 'bearer', query: AgentQuery,
      handler: async ({ caller, query }) => ({ attributes: (await listAttributes(ctx, caller.ws, await agentOf(caller.ws, query.agent))).map(presentAttr) }),
    }),
    route({
      method: 'post',
      path: '/api/attributes', response: widgetResponses['POST /api/attributes'],
      auth: 'editor',
      body: widgetRequests['POST /api/attributes'].body,
      handler: async ({ caller, body }) => {
        const { agentId, ...input } = body;
        const agent = (await agentOf(caller.ws, agentId)) ?? null;
        return { attribute: presentAttr(await createAttribute(ctx, caller.ws, agent, { ...input, label: input.label || input.name })) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/attributes/:id', response: widgetResponses['DELETE /api/attributes/:id'],
      auth: 'editor',
      params: widgetRequests['DELETE /api/attributes/:id'].params,
      handler: async ({ caller, params }) => {
        await removeAttribute(ctx, caller.ws, params.id);
        return { ok: true };
      },
    }),
    route({
      method: 'get', path: '/api/widget', response: widgetResponses['GET /api/widget'], auth: 'bearer', query: AgentQuery,
      handler: async ({ caller, query }) => show(await selectAgent(ctx, caller.ws, query.agent)),
    }),
    route({
      method: 'put',
      path: '/api/widget', response: widgetResponses['PUT /api/widget'],
      auth: 'editor',
      query: AgentQuery,
      body: widgetRequests['PUT /api/widget'].body,
      handler: async ({ caller, query, body }) => {
        const { agentId, ...fields } = body;
        const a = await selectAgent(ctx, caller.ws, agentId ?? query.agent);
        await saveWidget(ctx, caller.ws, a.id, { ...widgetConfig(a), ...fields });
        return show(await getAgent(ctx, caller.ws, a.id));
      },
    }),
    route({
      method: 'get', path: '/api/widgets', response: widgetResponses['GET /api/widgets'], auth: 'bearer', query: AgentQuery,
      handler: async ({ caller, query }) => ({ widgets: (await listBuilderWidgets(ctx, caller.ws, await agentOf(caller.ws, query.agent))).map(presentWidget) }),
    }),
    route({
      method: 'get', path: '/api/widgets/:id', response: widgetResponses['GET /api/widgets/:id'], auth: 'bearer', params: widgetRequests['GET /api/widgets/:id'].params,
      handler: async ({ caller, params }) => ({ widget: presentWidget(await builderWidget(ctx, caller.ws, params.id)) }),
    }),
    route({
      method: 'post',
      path: '/api/widgets', response: widgetResponses['POST /api/widgets'],
      auth: 'editor',
      query: AgentQuery,
      body: widgetRequests['POST /api/widgets'].body,
      handler: async ({ caller, query, body }) => {
        const { agentId, ...input } = body;
        const agent = await selectAgent(ctx, caller.ws, agentId ?? query.agent);
        return { widget: presentWidget(await createBuilderWidget(ctx, caller.ws, agent.id, { ...input, name: input.name ?? 'Untitled widget' })) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/widgets/:id', response: widgetResponses['PATCH /api/widgets/:id'],
      auth: 'editor',
      params: widgetRequests['PATCH /api/widgets/:id'].params,
      body: widgetRequests['PATCH /api/widgets/:id'].body,
      handler: async ({ caller, params, body }) => ({ widget: presentWidget(await updateBuilderWidget(ctx, caller.ws, params.id, body)) }),
    }),
    route({
      method: 'delete',
      path: '/api/widgets/:id', response: widgetResponses['DELETE /api/widgets/:id'],
      auth: 'editor',
      params: widgetRequests['DELETE /api/widgets/:id'].params,
      handler: async ({ caller, params }) => {
        await removeBuilderWidget(ctx, caller.ws, params.id);
        return { ok: true };
      },
    }),
  ];
}
