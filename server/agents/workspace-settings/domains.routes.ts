import { badRequest, conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { newId } from '../ids';
import { getAgent, selectAgent } from '../agents/agents.service';
import { domainsResponses } from '../../../shared/api/contracts/agents-workspace-settings';
import { domainsRequests } from '../../../shared/api/contracts/agents-workspace-settings-requests';
import { newVerifyToken, verifyClaim, verifyName, type DomainDns, type DomainRow } from './domains.service';

export { systemCnameResolver, systemTxtResolver, type CnameResolver, type TxtResolver, type DomainDns } from './domains.service';

const MAX_DOMAINS = 10;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const present = (d: DomainRow) => ({
  id: d.id, agentId: d.agent_id, domain: d.domain, status: d.status, error: d.error, cname: d.cname,
  checked_at: iso(d.checked_at), verified_at: iso(d.verified_at), created_at: iso(d.created_at),
  verification: { type: 'TXT', name: verifyName(d.domain), value: d.verify_token },
});

export function domainRoutes(ctx: AgentsContext, dnsLookup: DomainDns): AgentRoute[] {
  const target = ctx.config.cnameTarget;
  const find = (ws: string, id: string) => {
    const d = ctx.legacyDb.prepare('SELECT * FROM domains WHERE id = ? AND workspace_id = ?').get(id, ws) as DomainRow | undefined;
    if (!d) throw notFound('domain not found');
    return d;
  };
  const dns = { type: 'CNAME', target };
  return [
    route({
      method: 'get',
      path: '/api/domains', response: domainsResponses['GET /api/domains'],
      auth: 'bearer',
      query: domainsRequests['GET /api/domains'].query,
      handler: async ({ caller, query }) => {
        const agent = query.agent ? (await getAgent(ctx, caller.ws, query.agent)).id : null;
        const rows = (agent
          ? ctx.legacyDb.prepare('SELECT * FROM domains WHERE workspace_id = ? AND agent_id = ? ORDER BY created_at, id').all(caller.ws, agent)
          : ctx.legacyDb.prepare('SELECT * FROM domains WHERE workspace_id = ? ORDER BY created_at, id').all(caller.ws)) as DomainRow[];
        return { domains: rows.map(present), target, dns };
      },
    }),
    route({
      method: 'post',
      path: '/api/domains', response: domainsResponses['POST /api/domains'],
      auth: 'editor',
      query: domainsRequests['POST /api/domains'].query,
      body: domainsRequests['POST /api/domains'].body,
      handler: async ({ caller, query, body }) => {
        if (body.domain === target || body.domain.endsWith(`.${target}`)) throw badRequest('domain: choose your own domain, not the CNAME target');
        const agent = await selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        // Another workspace's claim never blocks this one: the claim that proves ownership by DNS wins (domains.service.ts).
        if (ctx.legacyDb.prepare('SELECT 1 FROM domains WHERE domain = ? AND workspace_id = ?').get(body.domain, caller.ws)) throw conflict('domain already added');
        const count = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM domains WHERE workspace_id = ?').get(caller.ws) as { n: number }).n;
        if (count >= MAX_DOMAINS) throw badRequest(`at most ${MAX_DOMAINS} domains per workspace`);
        const id = newId('dom');
        const now = Date.now();
        ctx.legacyDb
          .prepare("INSERT INTO domains (id, workspace_id, agent_id, domain, status, created_at, updated_at, verify_token) VALUES (?, ?, ?, ?, 'checking', ?, ?, ?)")
          .run(id, caller.ws, agent.id, body.domain, now, now, newVerifyToken());
        return { domain: present(find(caller.ws, id)), dns };
      },
    }),
    route({
      method: 'post',
      path: '/api/domains/:id/refresh', response: domainsResponses['POST /api/domains/:id/refresh'],
      auth: 'editor',
      params: domainsRequests['POST /api/domains/:id/refresh'].params,
      handler: async ({ caller, params }) => {
        const d = find(caller.ws, params.id);
        await verifyClaim(ctx, dnsLookup, d, target);
        return { domain: present(find(caller.ws, d.id)), dns };
      },
    }),
    route({
      method: 'delete',
      path: '/api/domains/:id', response: domainsResponses['DELETE /api/domains/:id'],
      auth: 'editor',
      params: domainsRequests['DELETE /api/domains/:id'].params,
      handler: ({ caller, params }) => {
        find(caller.ws, params.id);
        ctx.legacyDb.prepare('DELETE FROM domains WHERE id = ?').run(params.id);
        return { ok: true };
      },
    }),
  ];
}
