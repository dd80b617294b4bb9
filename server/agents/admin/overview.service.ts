import { TIER_ALLOWANCE } from '../../../shared/api/contracts/agents-values';
import type { AgentsContext } from '../context';
import { iso, presentAudit } from './guard';
import { recentAudit } from './audit.repository';
import {
  countAgentsNamingAModel, countOpenTickets, countPausedWorkspaces, countRows, countSince, countSuspendedUsers, creditsOutstanding, paidBy, paidByMonth, paidTotals,
  recentConversations, recentSignups, recentTickets, repliesByEngine, workspacesByTier,
} from './stats.repository';

const DAY = 86_400_000;

/** Paid payments by month (UTC), provider and kind, from the payment records of both providers. */
export async function revenue(ctx: AgentsContext) {
  const [totals, byMonth, byProvider, byKind] = await Promise.all([paidTotals(ctx.db, Date.now() - 30 * DAY), paidByMonth(ctx.db), paidBy(ctx.db, 'provider'), paidBy(ctx.db, 'kind')]);
  return {
    currency: 'USD',
    totalCents: totals.cents,
    total: totals.cents / 100,
    last30DaysCents: totals.recentCents,
    payments: totals.payments,
    byMonth,
    byProvider: byProvider.map((g) => ({ provider: g.key, cents: g.cents, payments: g.payments })),
    byKind: byKind.map((g) => ({ kind: g.key, cents: g.cents, payments: g.payments })),
  };
}

export async function stats(ctx: AgentsContext) {
  const db = ctx.db;
  const since = Date.now() - 7 * DAY;
  const [tiers, users, suspendedUsers, workspaces, pausedWorkspaces, agents, sources, passages, conversations, messages, leads, contacts, openTickets, credits] = await Promise.all([
    workspacesByTier(db), countRows(db, 'users'), countSuspendedUsers(db), countRows(db, 'workspaces'), countPausedWorkspaces(db), countRows(db, 'agents'), countRows(db, 'sources'),
    countRows(db, 'passages'), countRows(db, 'conversations'), countRows(db, 'messages'), countRows(db, 'leads'), countRows(db, 'contacts'), countOpenTickets(db), creditsOutstanding(db),
  ]);
  const [signups, newConversations, newMessages, newLeads] = await Promise.all((['users', 'conversations', 'messages', 'leads'] as const).map((t) => countSince(db, t, since)));
  return {
    users, suspendedUsers, workspaces, pausedWorkspaces, agents, sources, passages, conversations, messages, leads, contacts, openTickets,
    creditsOutstanding: credits,
    tiers: Object.fromEntries(Object.keys(TIER_ALLOWANCE).map((t) => [t, tiers.find((x) => x.tier === t)?.n ?? 0])),
    last7Days: { signups, conversations: newConversations, messages: newMessages, leads: newLeads },
  };
}

/** Newest first: operator actions, sign-ups, tickets and conversations, merged. */
export async function activity(ctx: AgentsContext, limit: number) {
  const [audits, signups, tickets, conversations] = await Promise.all([recentAudit(ctx.db, limit), recentSignups(ctx.db, limit), recentTickets(ctx.db, limit), recentConversations(ctx.db, limit)]);
  const items: { type: string; at: number; [k: string]: unknown }[] = [];
  for (const a of audits) items.push({ type: 'admin', at: a.created_at, ...presentAudit(a) });
  for (const u of signups) items.push({ type: 'signup', at: u.created_at, userId: u.id, email: u.email });
  for (const t of tickets) items.push({ type: 'ticket', at: t.created_at, ticketId: t.id, subject: t.subject, status: t.status, userId: t.user_id });
  for (const c of conversations) items.push({ type: 'conversation', at: c.created_at, conversationId: c.id, workspaceId: c.workspace_id, agentId: c.agent_id, channel: c.channel, handoff: c.handoff });
  items.sort((a, b) => b.at - a.at);
  return items.slice(0, limit).map(({ at, ...rest }) => ({ ...rest, created_at: iso(at) }));
}

/** Which engines answer and how turns were answered lately (no keys shown). */
export async function diagnostics(ctx: AgentsContext) {
  const by = async (since: number) => Object.fromEntries((await repliesByEngine(ctx.db, since)).map((r) => [r.engine ?? 'none', r.n]));
  const [last24h, last7d, modelAgents] = await Promise.all([by(Date.now() - DAY), by(Date.now() - 7 * DAY), countAgentsNamingAModel(ctx.db)]);
  const engines = await ctx.engines.available();
  return {
    engines,
    providers: { anthropic: { configured: engines.includes('anthropic') }, openai: { configured: engines.includes('openai') }, local: { configured: true } },
    repliesByEngine: { last24h, last7d },
    agentsNamingAModel: modelAgents,
    note: engines.length === 1 ? 'No model key is set: every agent answers with the local engine from its indexed sources.' : 'Model engines answer when their key is set; a failing provider hands the turn to the local engine.',
  };
}
