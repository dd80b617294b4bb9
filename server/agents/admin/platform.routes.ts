import { IdParam } from '../../../shared/api/contracts/agents-common';
import { TIER_ALLOWANCE } from '../../../shared/api/contracts/agents-values';
import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { billingOf } from '../billing';
import { getWorkspace, type WorkspaceRow } from '../accounts/accounts.service';
import { deleteAgent, presentAgent, type AgentRow } from '../agents/agents.service';
import { audit, hasTable, iso, paging, presentAudit, type AuditEntry } from './guard';
import { utcMonthOfMs } from '../db';
import { platformResponses } from '../../../shared/api/contracts/agents-admin';
import { platformRequests, platformListQuery } from '../../../shared/api/contracts/agents-admin-requests';

const DAY = 86_400_000;
const count = (ctx: AgentsContext, sql: string, ...args: unknown[]) => (ctx.legacyDb.prepare(sql).get(...args) as { n: number | null }).n ?? 0;

function presentWorkspace(ctx: AgentsContext, w: WorkspaceRow) {
  const owner = ctx.legacyDb.prepare('SELECT id, email, name FROM users WHERE id = ?').get(w.owner_id) as { id: string; email: string; name: string } | undefined;
  return {
    id: w.id,
    name: w.name,
    owner: owner ?? null,
    tier: w.tier,
    credits: w.credits,
    billing: billingOf(w),
    members: count(ctx, 'SELECT COUNT(*) AS n FROM members WHERE workspace_id = ?', w.id),
    agents: count(ctx, 'SELECT COUNT(*) AS n FROM agents WHERE workspace_id = ?', w.id),
    created_at: iso(w.created_at),
  };
}

function agentById(ctx: AgentsContext, id: string): AgentRow {
  const a = ctx.legacyDb.prepare('SELECT * FROM agents WHERE id = ?').get(id) as AgentRow | undefined;
  if (!a) throw notFound('agent not found');
  return a;
}

/** Paid payments by month (UTC), provider and kind, from the payment records of both providers. */
function revenue(ctx: AgentsContext) {
  if (!hasTable(ctx, 'payments')) return { currency: 'USD', totalCents: 0, total: 0, last30DaysCents: 0, payments: 0, byMonth: [], byProvider: [], byKind: [] };
  const paid = "status = 'paid'";
  const totalCents = count(ctx, `SELECT SUM(amount_cents) AS n FROM payments WHERE ${paid}`);
  const byMonth = ctx.legacyDb
    .prepare(`SELECT ${utcMonthOfMs(ctx.legacyDb, 'COALESCE(paid_at, created_at)')} AS month, SUM(amount_cents) AS cents, COUNT(*) AS payments FROM payments WHERE ${paid} GROUP BY month ORDER BY month DESC LIMIT 12`)
    .all() as { month: string; cents: number; payments: number }[];
  const group = (col: string) => ctx.legacyDb.prepare(`SELECT ${col} AS key, SUM(amount_cents) AS cents, COUNT(*) AS payments FROM payments WHERE ${paid} GROUP BY ${col} ORDER BY cents DESC`).all() as { key: string; cents: number; payments: number }[];
  return {
    currency: 'USD',
    totalCents,
    total: totalCents / 100,
    last30DaysCents: count(ctx, `SELECT SUM(amount_cents) AS n FROM payments WHERE ${paid} AND COALESCE(paid_at, created_at) >= ?`, Date.now() - 30 * DAY),
    payments: count(ctx, `SELECT COUNT(*) AS n FROM payments WHERE ${paid}`),
    byMonth,
    byProvider: group('provider').map((g) => ({ provider: g.key, cents: g.cents, payments: g.payments })),
    byKind: group('kind').map((g) => ({ kind: g.key, cents: g.cents, payments: g.payments })),
  };
}

function stats(ctx: AgentsContext) {
  const since = Date.now() - 7 * DAY;
  const tiers = ctx.legacyDb.prepare('SELECT tier, COUNT(*) AS n FROM workspaces GROUP BY tier').all() as { tier: string; n: number }[];
  return {
    users: count(ctx, 'SELECT COUNT(*) AS n FROM users'),
    suspendedUsers: count(ctx, 'SELECT COUNT(*) AS n FROM users WHERE suspended = 1'),
    workspaces: count(ctx, 'SELECT COUNT(*) AS n FROM workspaces'),
    pausedWorkspaces: count(ctx, 'SELECT COUNT(*) AS n FROM workspaces WHERE paused = 1'),
    agents: count(ctx, 'SELECT COUNT(*) AS n FROM agents'),
    sources: count(ctx, 'SELECT COUNT(*) AS n FROM sources'),
    passages: count(ctx, 'SELECT COUNT(*) AS n FROM passages'),
    conversations: count(ctx, 'SELECT COUNT(*) AS n FROM conversations'),
    messages: count(ctx, 'SELECT COUNT(*) AS n FROM messages'),
    leads: count(ctx, 'SELECT COUNT(*) AS n FROM leads'),
    contacts: count(ctx, 'SELECT COUNT(*) AS n FROM contacts'),
    openTickets: count(ctx, "SELECT COUNT(*) AS n FROM support_tickets WHERE status IN ('open', 'pending')"),
    creditsOutstanding: count(ctx, 'SELECT SUM(credits) AS n FROM workspaces'),
    tiers: Object.fromEntries(Object.keys(TIER_ALLOWANCE).map((t) => [t, tiers.find((x) => x.tier === t)?.n ?? 0])),
    last7Days: {
      signups: count(ctx, 'SELECT COUNT(*) AS n FROM users WHERE created_at >= ?', since),
      conversations: count(ctx, 'SELECT COUNT(*) AS n FROM conversations WHERE created_at >= ?', since),
      messages: count(ctx, 'SELECT COUNT(*) AS n FROM messages WHERE created_at >= ?', since),
      leads: count(ctx, 'SELECT COUNT(*) AS n FROM leads WHERE created_at >= ?', since),
    },
  };
}

/** Newest first: operator actions, sign-ups, tickets and conversations, merged. */
function activity(ctx: AgentsContext, limit: number) {
  const items: { type: string; at: number; [k: string]: unknown }[] = [];
  for (const a of ctx.legacyDb.prepare('SELECT * FROM admin_audit ORDER BY created_at DESC, id DESC LIMIT ?').all(limit) as AuditEntry[]) items.push({ type: 'admin', at: a.created_at, ...presentAudit(a) });
  for (const u of ctx.legacyDb.prepare('SELECT id, email, created_at FROM users ORDER BY created_at DESC LIMIT ?').all(limit) as { id: string; email: string; created_at: number }[])
    items.push({ type: 'signup', at: u.created_at, userId: u.id, email: u.email });
  for (const t of ctx.legacyDb.prepare('SELECT id, subject, status, user_id, created_at FROM support_tickets ORDER BY created_at DESC LIMIT ?').all(limit) as { id: string; subject: string; status: string; user_id: string; created_at: number }[])
    items.push({ type: 'ticket', at: t.created_at, ticketId: t.id, subject: t.subject, status: t.status, userId: t.user_id });
  for (const c of ctx.legacyDb.prepare('SELECT id, workspace_id, agent_id, channel, handoff, created_at FROM conversations ORDER BY created_at DESC LIMIT ?').all(limit) as { id: string; workspace_id: string; agent_id: string; channel: string; handoff: string; created_at: number }[])
    items.push({ type: 'conversation', at: c.created_at, conversationId: c.id, workspaceId: c.workspace_id, agentId: c.agent_id, channel: c.channel, handoff: c.handoff });
  items.sort((a, b) => b.at - a.at);
  return items.slice(0, limit).map(({ at, ...rest }) => ({ ...rest, created_at: iso(at) }));
}

/** Which engines answer and how turns were answered lately (no keys shown). */
function diagnostics(ctx: AgentsContext) {
  const by = (since: number) =>
    Object.fromEntries((ctx.legacyDb.prepare("SELECT engine, COUNT(*) AS n FROM messages WHERE role = 'assistant' AND created_at >= ? GROUP BY engine").all(since) as { engine: string | null; n: number }[]).map((r) => [r.engine ?? 'none', r.n]));
  const modelAgents = count(ctx, "SELECT COUNT(*) AS n FROM agents WHERE lower(model) LIKE 'claude%' OR lower(model) LIKE 'gpt%' OR lower(model) LIKE 'o_%'");
  return {
    engines: ctx.engines.available(),
    providers: { anthropic: { configured: ctx.engines.available().includes('anthropic') }, openai: { configured: ctx.engines.available().includes('openai') }, local: { configured: true } },
    repliesByEngine: { last24h: by(Date.now() - DAY), last7d: by(Date.now() - 7 * DAY) },
    agentsNamingAModel: modelAgents,
    note: ctx.engines.available().length === 1 ? 'No model key is set: every agent answers with the local engine from its indexed sources.' : 'Model engines answer when their key is set; a failing provider hands the turn to the local engine.',
  };
}

/** Operator overview and the workspace and agent directories. */
export function adminPlatformRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  return [
    route({ ...admin, method: 'get', path: '/api/admin/revenue', response: platformResponses['GET /api/admin/revenue'], handler: () => revenue(ctx) }),
    route({ ...admin, method: 'get', path: '/api/admin/stats', response: platformResponses['GET /api/admin/stats'], handler: () => stats(ctx) }),
    route({ ...admin, method: 'get', path: '/api/admin/activity', response: platformResponses['GET /api/admin/activity'], query: platformRequests['GET /api/admin/activity'].query, handler: ({ query }) => ({ activity: activity(ctx, query.limit) }) }),
    route({ ...admin, method: 'get', path: '/api/admin/llm-diagnostics', response: platformResponses['GET /api/admin/llm-diagnostics'], handler: () => diagnostics(ctx) }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/workspaces', response: platformResponses['GET /api/admin/workspaces'],
      query: platformListQuery,
      handler: ({ query }) => {
        const { limit, page, offset } = paging(query);
        const like = `%${(query.search ?? '').trim().toLowerCase()}%`;
        const where = 'WHERE lower(w.name) LIKE ? OR w.id = ? OR w.owner_id IN (SELECT id FROM users WHERE lower(email) LIKE ?)';
        const args = [like, query.search ?? '', like];
        const total = count(ctx, `SELECT COUNT(*) AS n FROM workspaces w ${where}`, ...args);
        const rows = ctx.legacyDb.prepare(`SELECT w.* FROM workspaces w ${where} ORDER BY w.created_at DESC, w.id LIMIT ? OFFSET ?`).all(...args, limit, offset) as WorkspaceRow[];
        return { workspaces: rows.map((w) => presentWorkspace(ctx, w)), total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/workspaces/:id', response: platformResponses['GET /api/admin/workspaces/:id'],
      params: IdParam,
      handler: ({ params }) => {
        const w = getWorkspace(ctx, params.id);
        const members = ctx.legacyDb.prepare('SELECT u.id, u.email, u.name, m.role FROM members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? ORDER BY m.created_at').all(w.id);
        const agents = (ctx.legacyDb.prepare('SELECT * FROM agents WHERE workspace_id = ? ORDER BY created_at').all(w.id) as AgentRow[]).map(presentAgent);
        return { workspace: { ...presentWorkspace(ctx, w), memberList: members, agentList: agents } };
      },
    }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/workspaces/:id', response: platformResponses['PATCH /api/admin/workspaces/:id'],
      params: IdParam,
      body: platformRequests['PATCH /api/admin/workspaces/:id'].body,
      handler: ({ caller, params, body }) => {
        const w = getWorkspace(ctx, params.id);
        ctx.legacyDb.prepare('UPDATE workspaces SET name = ?, tier = ?, paused = ? WHERE id = ?').run(body.name ?? w.name, body.tier ?? w.tier, body.paused === undefined ? w.paused : body.paused ? 1 : 0, w.id);
        audit(ctx, caller, 'workspace.update', 'workspace', w.id, body);
        return { workspace: presentWorkspace(ctx, getWorkspace(ctx, w.id)) };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/agents', response: platformResponses['GET /api/admin/agents'],
      query: platformListQuery,
      handler: ({ query }) => {
        const { limit, page, offset } = paging(query);
        const like = `%${(query.search ?? '').trim().toLowerCase()}%`;
        const where = `WHERE (lower(name) LIKE ? OR id = ? OR public_id = ?)${query.workspace ? ' AND workspace_id = ?' : ''}`;
        const args = [like, query.search ?? '', query.search ?? '', ...(query.workspace ? [query.workspace] : [])];
        const total = count(ctx, `SELECT COUNT(*) AS n FROM agents ${where}`, ...args);
        const rows = ctx.legacyDb.prepare(`SELECT * FROM agents ${where} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`).all(...args, limit, offset) as AgentRow[];
        return { agents: rows.map((a) => ({ ...presentAgent(a), workspaceId: a.workspace_id })), total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/agents/:id', response: platformResponses['GET /api/admin/agents/:id'],
      params: IdParam,
      handler: ({ params }) => {
        const a = agentById(ctx, params.id);
        return {
          agent: { ...presentAgent(a), workspaceId: a.workspace_id },
          counts: {
            sources: count(ctx, 'SELECT COUNT(*) AS n FROM sources WHERE agent_id = ?', a.id),
            passages: count(ctx, 'SELECT COUNT(*) AS n FROM passages WHERE agent_id = ?', a.id),
            conversations: count(ctx, 'SELECT COUNT(*) AS n FROM conversations WHERE agent_id = ?', a.id),
            leads: count(ctx, 'SELECT COUNT(*) AS n FROM leads WHERE agent_id = ?', a.id),
          },
        };
      },
    }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/agents/:id', response: platformResponses['PATCH /api/admin/agents/:id'],
      params: IdParam,
      body: platformRequests['PATCH /api/admin/agents/:id'].body,
      handler: ({ caller, params, body }) => {
        const a = agentById(ctx, params.id);
        ctx.legacyDb.prepare('UPDATE agents SET status = ?, visibility = ?, updated_at = ? WHERE id = ?').run(body.status ?? a.status, body.visibility ?? a.visibility, Date.now(), a.id);
        audit(ctx, caller, 'agent.update', 'agent', a.id, body);
        return { agent: { ...presentAgent(agentById(ctx, a.id)), workspaceId: a.workspace_id } };
      },
    }),
    route({
      ...admin,
      method: 'delete',
      path: '/api/admin/agents/:id', response: platformResponses['DELETE /api/admin/agents/:id'],
      params: IdParam,
      handler: async ({ caller, params }) => {
        const a = agentById(ctx, params.id);
        await deleteAgent(ctx, a.workspace_id, a.id);
        audit(ctx, caller, 'agent.delete', 'agent', a.id, { name: a.name, workspaceId: a.workspace_id });
        return { ok: true };
      },
    }),
  ];
}
