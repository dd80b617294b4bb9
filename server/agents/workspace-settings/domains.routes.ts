import { resolveCname as dnsResolveCname } from 'node:dns/promises';
import { badRequest, conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { newId } from '../ids';
import { getAgent, selectAgent } from '../agents/agents.service';
import { domainsResponses } from '../../../shared/api/contracts/agents-workspace-settings';
import { domainsRequests, norm } from '../../../shared/api/contracts/agents-workspace-settings-requests';

/** CNAME lookup; injectable so tests answer without the network. */
export type CnameResolver = (host: string) => Promise<string[]>;
export const systemCnameResolver: CnameResolver = (host) => dnsResolveCname(host);

export const MAX_DOMAINS = 10;

interface DomainRow {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  domain: string;
  status: 'checking' | 'active' | 'misconfigured';
  error: string | null;
  cname: string | null;
  checked_at: number | null;
  verified_at: number | null;
  created_at: number;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const present = (d: DomainRow) => ({
  id: d.id, agentId: d.agent_id, domain: d.domain, status: d.status, error: d.error, cname: d.cname,
  checked_at: iso(d.checked_at), verified_at: iso(d.verified_at), created_at: iso(d.created_at),
});

export function domainRoutes(ctx: AgentsContext, resolveCname: CnameResolver): AgentRoute[] {
  const target = ctx.config.cnameTarget;
  const find = (ws: string, id: string) => {
    const d = ctx.db.prepare('SELECT * FROM domains WHERE id = ? AND workspace_id = ?').get(id, ws) as DomainRow | undefined;
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
      handler: ({ caller, query }) => {
        const agent = query.agent ? getAgent(ctx, caller.ws, query.agent).id : null;
        const rows = (agent
          ? ctx.db.prepare('SELECT * FROM domains WHERE workspace_id = ? AND agent_id = ? ORDER BY created_at, id').all(caller.ws, agent)
          : ctx.db.prepare('SELECT * FROM domains WHERE workspace_id = ? ORDER BY created_at, id').all(caller.ws)) as DomainRow[];
        return { domains: rows.map(present), target, dns };
      },
    }),
    route({
      method: 'post',
      path: '/api/domains', response: domainsResponses['POST /api/domains'],
      auth: 'editor',
      query: domainsRequests['POST /api/domains'].query,
      body: domainsRequests['POST /api/domains'].body,
      handler: ({ caller, query, body }) => {
        if (body.domain === target || body.domain.endsWith(`.${target}`)) throw badRequest('domain: choose your own domain, not the CNAME target');
        const agent = selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        if (ctx.db.prepare('SELECT 1 FROM domains WHERE domain = ?').get(body.domain)) throw conflict('domain already added');
        const count = (ctx.db.prepare('SELECT COUNT(*) AS n FROM domains WHERE workspace_id = ?').get(caller.ws) as { n: number }).n;
        if (count >= MAX_DOMAINS) throw badRequest(`at most ${MAX_DOMAINS} domains per workspace`);
        const id = newId('dom');
        const now = Date.now();
        ctx.db
          .prepare("INSERT INTO domains (id, workspace_id, agent_id, domain, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'checking', ?, ?)")
          .run(id, caller.ws, agent.id, body.domain, now, now);
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
        let answers: string[] = [];
        let failure: string | null = null;
        try {
          answers = (await resolveCname(d.domain)).map(norm);
        } catch (err) {
          const code = (err as { code?: string }).code;
          failure = code === 'ENODATA' || code === 'ENOTFOUND' ? 'no CNAME record found yet' : `DNS lookup failed (${code ?? 'error'})`;
        }
        const now = Date.now();
        const ok = answers.includes(target);
        const status = ok ? 'active' : answers.length ? 'misconfigured' : 'checking';
        const error = ok ? null : answers.length ? `CNAME points to ${answers.join(', ')}, expected ${target}` : failure ?? 'no CNAME record found yet';
        ctx.db
          .prepare('UPDATE domains SET status = ?, error = ?, cname = ?, checked_at = ?, verified_at = CASE WHEN ? THEN COALESCE(verified_at, ?) ELSE NULL END, updated_at = ? WHERE id = ?')
          .run(status, error, answers[0] ?? null, now, ok ? 1 : 0, now, now, d.id);
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
        ctx.db.prepare('DELETE FROM domains WHERE id = ?').run(params.id);
        return { ok: true };
      },
    }),
  ];
}
