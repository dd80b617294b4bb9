import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent } from '../agents/agents.service';
import { csvReply, CSV_MAX_ROWS } from '../csv';
import { iso, pageQuery, WorkspaceTable, type Row } from './table';
import { leadsResponses } from '../../../shared/api/contracts/agents-crm';
import { leadsRequests, email } from '../../../shared/api/contracts/agents-crm-requests';
import { LEAD_STATUSES } from '../../../shared/api/contracts/agents-values';

const leads = new WorkspaceTable<{ name: string; email: string; phone: string; company: string; status: string; score: number; source: string; notes: string }>('leads', 'ld', 'lead not found', {
  name: 'name', email: 'email', phone: 'phone', company: 'company', status: 'status', score: 'score', source: 'source', notes: 'notes',
});

const presentLead = (r: Row) => ({
  id: r.id, agentId: r.agent_id, conversationId: r.conversation_id, name: r.name, email: r.email, phone: r.phone, company: r.company,
  status: r.status, score: r.score, source: r.source, notes: r.notes, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
});
const leadsSORTS = ['created_at', 'updated_at', 'name', 'email', 'score', 'status'] as const;

export function leadRoutes(ctx: AgentsContext): AgentRoute[] {
  const agentOf = async (ws: string, id?: string) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  return [
    route({
      method: 'get',
      path: '/api/leads', response: leadsResponses['GET /api/leads'],
      auth: 'bearer',
      query: leadsRequests['GET /api/leads'].query,
      handler: async ({ caller, query }) => {
        const p = leads.page(ctx, caller.ws, {
          agentId: await agentOf(caller.ws, query.agent), search: query.search, searchIn: ['name', 'email', 'phone', 'company', 'notes'],
          filters: query.status ? { status: query.status } : {}, ...pageQuery(query, leadsSORTS, 'created_at'),
        });
        return { leads: p.rows.map(presentLead), total: p.total, page: p.page, limit: p.limit, pages: p.pages };
      },
    }),
    route({
      method: 'get',
      path: '/api/leads/stats', response: leadsResponses['GET /api/leads/stats'],
      auth: 'bearer',
      query: leadsRequests['GET /api/leads/stats'].query,
      handler: async ({ caller, query }) => {
        const agentId = await agentOf(caller.ws, query.agent);
        const rows = ctx.legacyDb
          .prepare(`SELECT status, COUNT(*) AS n FROM leads WHERE workspace_id = ? ${agentId ? 'AND agent_id = ?' : ''} GROUP BY status`)
          .all(...(agentId ? [caller.ws, agentId] : [caller.ws])) as { status: string; n: number }[];
        const byStatus: Record<string, number> = Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0]));
        for (const r of rows) byStatus[r.status] = r.n;
        return { total: rows.reduce((a, r) => a + r.n, 0), byStatus };
      },
    }),
    route({
      method: 'get',
      path: '/api/leads/export.csv', produces: 'text/csv',
      auth: 'bearer',
      query: leadsRequests['GET /api/leads/export.csv'].query,
      handler: async ({ caller, query }) => {
        const rows = leads.all(ctx, caller.ws, await agentOf(caller.ws, query.agent), CSV_MAX_ROWS);
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
        return { lead: presentLead(leads.create(ctx, caller.ws, await agentOf(caller.ws, agentId) ?? null, { status: 'new', source: 'manual', ...input })) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/leads/:lid', response: leadsResponses['PATCH /api/leads/:lid'],
      auth: 'editor',
      params: leadsRequests['PATCH /api/leads/:lid'].params,
      body: leadsRequests['PATCH /api/leads/:lid'].body,
      handler: ({ caller, params, body }) => ({ lead: presentLead(leads.update(ctx, caller.ws, params.lid, body)) }),
    }),
    route({
      method: 'delete',
      path: '/api/leads/:lid', response: leadsResponses['DELETE /api/leads/:lid'],
      auth: 'editor',
      params: leadsRequests['DELETE /api/leads/:lid'].params,
      handler: ({ caller, params }) => {
        leads.remove(ctx, caller.ws, params.lid);
        return { ok: true };
      },
    }),
  ];
}
