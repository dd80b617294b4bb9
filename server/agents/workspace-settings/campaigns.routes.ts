import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent } from '../agents/agents.service';
import { iso } from '../crm/table';
import { campaign, createCampaign, createTemplate, listCampaigns, listTemplates, sendCampaign, type Audience } from './campaigns.service';
import { campaignsResponses } from '../../../shared/api/contracts/agents-workspace-settings';
import { campaignsRequests } from '../../../shared/api/contracts/agents-workspace-settings-requests';

type TemplateRow = Awaited<ReturnType<typeof createTemplate>>;
type CampaignRow = Awaited<ReturnType<typeof campaign>>;
const presentTemplate = (r: TemplateRow) => ({ id: r.id, agentId: r.agent_id, name: r.name, type: r.type, body: r.body, created_at: iso(r.created_at) });
const presentCampaign = (r: CampaignRow) => ({
  id: r.id, agentId: r.agent_id, name: r.name, channel: r.channel, repliesMode: r.replies_mode, templateId: r.template_id,
  audience: JSON.parse(r.audience) as Audience, status: r.status, recipients: r.recipients, sent_at: iso(r.sent_at), created_at: iso(r.created_at),
});

export function campaignRoutes(ctx: AgentsContext): AgentRoute[] {
  const agentOf = async (ws: string, id?: string) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  return [
    route({
      method: 'get',
      path: '/api/campaigns', response: campaignsResponses['GET /api/campaigns'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const rows = await listCampaigns(ctx, caller.ws, await agentOf(caller.ws, query.agent));
        const counts = { total: rows.length, draft: 0, sent: 0 };
        for (const r of rows) counts[r.status === 'sent' ? 'sent' : 'draft']++;
        return { beta: true, campaigns: rows.map(presentCampaign), counts };
      },
    }),
    route({
      method: 'post',
      path: '/api/campaigns', response: campaignsResponses['POST /api/campaigns'],
      auth: 'editor',
      query: AgentQuery,
      body: campaignsRequests['POST /api/campaigns'].body,
      handler: async ({ caller, query, body }) => {
        const { agentId, ...input } = body;
        const agent = await selectAgent(ctx, caller.ws, agentId ?? query.agent);
        return { campaign: presentCampaign(await createCampaign(ctx, caller.ws, agent.id, { ...input, templateId: input.templateId ?? null })) };
      },
    }),
    route({
      method: 'post',
      path: '/api/campaigns/:id/send', response: campaignsResponses['POST /api/campaigns/:id/send'],
      auth: 'editor',
      params: campaignsRequests['POST /api/campaigns/:id/send'].params,
      handler: async ({ caller, params }) => ({ campaign: presentCampaign(await sendCampaign(ctx, caller.ws, params.id)) }),
    }),
    route({
      method: 'get',
      path: '/api/campaigns/templates', response: campaignsResponses['GET /api/campaigns/templates'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => ({ templates: (await listTemplates(ctx, caller.ws, await agentOf(caller.ws, query.agent))).map(presentTemplate) }),
    }),
    route({
      method: 'post',
      path: '/api/campaigns/templates', response: campaignsResponses['POST /api/campaigns/templates'],
      auth: 'editor',
      query: AgentQuery,
      body: campaignsRequests['POST /api/campaigns/templates'].body,
      handler: async ({ caller, query, body }) => {
        const { agentId, ...input } = body;
        const agent = await selectAgent(ctx, caller.ws, agentId ?? query.agent);
        return { template: presentTemplate(await createTemplate(ctx, caller.ws, agent.id, input)) };
      },
    }),
  ];
}
