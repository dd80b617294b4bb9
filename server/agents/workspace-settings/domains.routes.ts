import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent } from '../agents/agents.service';
import { domainsResponses } from '../../../shared/api/contracts/agents-workspace-settings';
import { domainsRequests } from '../../../shared/api/contracts/agents-workspace-settings-requests';
import { addDomainClaim, domainClaim, listDomainClaims, removeDomainClaim, verifyClaim, verifyName, type DomainDns, type DomainRow } from './domains.service';

export { systemCnameResolver, systemTxtResolver, type CnameResolver, type TxtResolver, type DomainDns } from './domains.service';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const present = (d: DomainRow) => ({
  id: d.id, agentId: d.agent_id, domain: d.domain, status: d.status, error: d.error, cname: d.cname,
  checked_at: iso(d.checked_at), verified_at: iso(d.verified_at), created_at: iso(d.created_at),
  verification: { type: 'TXT', name: verifyName(d.domain), value: d.verify_token },
});

export function domainRoutes(ctx: AgentsContext, dnsLookup: DomainDns): AgentRoute[] {
  const target = ctx.config.cnameTarget;
  const dns = { type: 'CNAME', target };
  return [
    route({
      method: 'get',
      path: '/api/domains', response: domainsResponses['GET /api/domains'],
      auth: 'bearer',
      query: domainsRequests['GET /api/domains'].query,
      handler: async ({ caller, query }) => {
        const agent = query.agent ? (await getAgent(ctx, caller.ws, query.agent)).id : null;
        return { domains: (await listDomainClaims(ctx, caller.ws, agent)).map(present), target, dns };
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
        return { domain: present(await addDomainClaim(ctx, caller.ws, agent.id, body.domain)), dns };
      },
    }),
    route({
      method: 'post',
      path: '/api/domains/:id/refresh', response: domainsResponses['POST /api/domains/:id/refresh'],
      auth: 'editor',
      params: domainsRequests['POST /api/domains/:id/refresh'].params,
      handler: async ({ caller, params }) => {
        const d = await domainClaim(ctx, caller.ws, params.id);
        await verifyClaim(ctx, dnsLookup, d, target);
        return { domain: present(await domainClaim(ctx, caller.ws, d.id)), dns };
      },
    }),
    route({
      method: 'delete',
      path: '/api/domains/:id', response: domainsResponses['DELETE /api/domains/:id'],
      auth: 'editor',
      params: domainsRequests['DELETE /api/domains/:id'].params,
      handler: async ({ caller, params }) => {
        await removeDomainClaim(ctx, caller.ws, params.id);
        return { ok: true };
      },
    }),
  ];
}
