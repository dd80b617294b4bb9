import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent } from '../agents/agents.service';
import { csvReply, CSV_MAX_ROWS } from '../csv';
import { iso, pageQuery } from './table';
import { createLead, exportLeads, LEAD_SORTS, leadStats, pageLeads, removeLead, updateLead } from './leads.service';
import { leadsResponses } from '../../../shared/api/contracts/agents-crm';
import { leadsRequests, email } from '../../../shared/api/contracts/agents-crm-requests';

type LeadRow = Awaited<ReturnType<typeof createLead>>;
const presentLead = (r: LeadRow) => ({
  id: r.id, agentId: r.agent_id, conversationId: r.conversation_id, name: r.name, email: r.email, phone: r.phone, company: r.company,
  status: r.status, score: r.score, source: r.source, notes: r.notes, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
});

export function leadRoutes(ctx: AgentsContext): AgentRoute[] {
  const agentOf = async (ws: string, id?: string) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  return [
    route({
      method: 'get',
      path: '/api/leads', response: leadsResponses['GET /api/leads'],
      auth: 'bearer',
      query: leadsRequests['GET /api/leads'].query,
      handler: async ({ caller, query }) => {
        const p = await pageLeads(ctx, caller.ws, {
          agentId: await agentOf(caller.ws, query.agent), search: query.search, status: query.status || undefined, ...pageQuery(query, LEAD_SORTS, 'created_at'),
        });
        return { leads: p.rows.map(presentLead), total: p.total, page: p.page, limit: p.limit, pages: p.pages };
      },
    }),
    route({
      method: 'get',
      path: '/api/leads/stats', response: leadsResponses['GET /api/leads/stats'],
      auth: 'bearer',
      query: leadsRequests['GET /api/leads/stats'].query,
      handler: async ({ caller, query }) => leadStats(ctx, caller.ws, await agentOf(caller.ws, query.agent)),
    }),
    route({
      method: 'get',
      path: '/api/leads/export.csv', produces: 'text/csv',
      auth: 'bearer',
      query: leadsRequests['GET /api/leads/export.csv'].query,
      handler: async ({ caller, query }) => {
        const rows = await exportLeads(ctx, caller.ws, await agentOf(caller.ws, query.agent), CSV_MAX_ROWS);
        return csvReply('leads.csv', ['id', 'name', 'email', 'phone', 'company', 'status', 'score', 'source', 'notes', 'created_at'],
          rows.map((r) => [r.id, r.name, r.email, r.phone, r.company, r.status, r.score, r.source, r.notes, iso(r.created_at)]));
      },
    }),
    route({
      method: 'post',
      path: '/api/leads', response: leadsResponses['POST /api/leads'],
      auth: 'editor',
      body: leadsRequests['POST /api/leads'].body,
      handler: async ({ caller, body }) => {
        const { agentId, ...input } = body;
        return { lead: presentLead(await createLead(ctx, caller.ws, (await agentOf(caller.ws, agentId)) ?? null, input)) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/leads/:lid', response: leadsResponses['PATCH /api/leads/:lid'],
      auth: 'editor',
      params: leadsRequests['PATCH /api/leads/:lid'].params,
      body: leadsRequests['PATCH /api/leads/:lid'].body,
      handler: async ({ caller, params, body }) => ({ lead: presentLead(await updateLead(ctx, caller.ws, params.lid, body)) }),
    }),
    route({
      method: 'delete',
      path: '/api/leads/:lid', response: leadsResponses['DELETE /api/leads/:lid'],
      auth: 'editor',
      params: leadsRequests['DELETE /api/leads/:lid'].params,
      handler: async ({ caller, params }) => {
        await removeLead(ctx, caller.ws, params.lid);
        return { ok: true };
      },
    }),
  ];
}
