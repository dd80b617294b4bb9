import { z } from 'zod';
import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import { conflict } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent } from '../agents/agents.service';
import { iso, WorkspaceTable, type Row } from '../crm/table';
import { campaignsResponses } from '../../../shared/api/contracts/agents-workspace-settings';
import { campaignsRequests, audienceSchema } from '../../../shared/api/contracts/agents-workspace-settings-requests';
type Audience = z.infer<typeof audienceSchema>;

const templates = new WorkspaceTable<{ name: string; type: string; body: string }>('campaign_templates', 'tpl', 'template not found', { name: 'name', type: 'type', body: 'body' });
const campaigns = new WorkspaceTable<{ name: string; channel: string; repliesMode: string; templateId: string | null; audience: Audience }>('campaigns', 'cmp', 'campaign not found', {
  name: 'name', channel: 'channel', repliesMode: 'replies_mode', templateId: 'template_id', audience: 'audience',
});

const presentTemplate = (r: Row) => ({ id: r.id, agentId: r.agent_id, name: r.name, type: r.type, body: r.body, created_at: iso(r.created_at) });
const presentCampaign = (r: Row) => ({
  id: r.id, agentId: r.agent_id, name: r.name, channel: r.channel, repliesMode: r.replies_mode, templateId: r.template_id,
  audience: JSON.parse(String(r.audience)) as Audience, status: r.status, recipients: r.recipients, sent_at: iso(r.sent_at), created_at: iso(r.created_at),
});

/** How many people the audience reaches now (leads with an address, contacts). */
function audienceSize(ctx: AgentsContext, ws: string, agentId: string | null, a: Audience): number {
  const count = (sql: string, ...args: unknown[]) => (ctx.legacyDb.prepare(sql).get(...args) as { n: number }).n;
  const agentClause = agentId ? ' AND (agent_id = ? OR agent_id IS NULL)' : '';
  const base = agentId ? [ws, agentId] : [ws];
  const leads = () => (a.status
    ? count(`SELECT COUNT(*) AS n FROM leads WHERE workspace_id = ?${agentClause} AND status = ?`, ...base, a.status)
    : count(`SELECT COUNT(*) AS n FROM leads WHERE workspace_id = ?${agentClause}`, ...base));
  const contacts = () => count(`SELECT COUNT(*) AS n FROM contacts WHERE workspace_id = ?${agentClause}`, ...base);
  return a.type === 'leads' ? leads() : a.type === 'contacts' ? contacts() : leads() + contacts();
}

export function campaignRoutes(ctx: AgentsContext): AgentRoute[] {
  const agentOf = async (ws: string, id?: string) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  return [
    route({
      method: 'get',
      path: '/api/campaigns', response: campaignsResponses['GET /api/campaigns'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const rows = campaigns.all(ctx, caller.ws, await agentOf(caller.ws, query.agent), 500);
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
        if (input.templateId) templates.get(ctx, caller.ws, input.templateId);
        return { campaign: presentCampaign(campaigns.create(ctx, caller.ws, agent.id, { ...input, templateId: input.templateId ?? null })) };
      },
    }),
    route({
      method: 'post',
      path: '/api/campaigns/:id/send', response: campaignsResponses['POST /api/campaigns/:id/send'],
      auth: 'editor',
      params: campaignsRequests['POST /api/campaigns/:id/send'].params,
      handler: ({ caller, params }) => {
        const c = campaigns.get(ctx, caller.ws, params.id);
        if (c.status === 'sent') throw conflict('campaign already sent');
        const recipients = audienceSize(ctx, caller.ws, (c.agent_id as string | null) ?? null, JSON.parse(String(c.audience)) as Audience);
        const now = Date.now();
        ctx.legacyDb.prepare("UPDATE campaigns SET status = 'sent', recipients = ?, sent_at = ?, updated_at = ? WHERE id = ? AND status = 'draft'").run(recipients, now, now, c.id);
        return { campaign: presentCampaign(campaigns.get(ctx, caller.ws, c.id)) };
      },
    }),
    route({
      method: 'get',
      path: '/api/campaigns/templates', response: campaignsResponses['GET /api/campaigns/templates'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => ({ templates: templates.all(ctx, caller.ws, await agentOf(caller.ws, query.agent), 500).map(presentTemplate) }),
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
        return { template: presentTemplate(templates.create(ctx, caller.ws, agent.id, input)) };
      },
    }),
  ];
}
