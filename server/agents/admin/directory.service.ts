import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { billingOf } from '../billing';
import type { WorkspaceRow } from '../accounts/accounts.service';
import { deleteAgent, presentAgent, type AgentRow } from '../agents/agents.service';
import { iso } from './guard';
import { countMembers, countWorkspacesMatching, findWorkspace, membersOf, ownerOf, updateWorkspace, workspacesMatching } from './workspaces.repository';
import { agentCounts, agentsMatching, agentsOfWorkspace, countAgentsMatching, countAgentsOf, findAgent, updateAgentFlags } from './agents-directory.repository';

/** The operator's directories of every workspace and every agent. */

async function presentWorkspace(ctx: AgentsContext, w: WorkspaceRow) {
  const [owner, members, agents] = await Promise.all([ownerOf(ctx.db, w.owner_id), countMembers(ctx.db, w.id), countAgentsOf(ctx.db, w.id)]);
  return { id: w.id, name: w.name, owner: owner ?? null, tier: w.tier, credits: w.credits, billing: await billingOf(w), members, agents, created_at: iso(w.created_at) };
}

async function workspaceById(ctx: AgentsContext, id: string): Promise<WorkspaceRow> {
  const w = await findWorkspace(ctx.db, id);
  if (!w) throw notFound('workspace not found');
  return w;
}

export async function searchWorkspaces(ctx: AgentsContext, search: string, limit: number, offset: number) {
  const [total, rows] = await Promise.all([countWorkspacesMatching(ctx.db, search), workspacesMatching(ctx.db, search, limit, offset)]);
  return { total, workspaces: await Promise.all(rows.map((w) => presentWorkspace(ctx, w))) };
}

/** One workspace with its members and agents. */
export async function workspaceDetail(ctx: AgentsContext, id: string) {
  const w = await workspaceById(ctx, id);
  const [members, agents] = await Promise.all([membersOf(ctx.db, w.id), agentsOfWorkspace(ctx.db, w.id)]);
  return { ...(await presentWorkspace(ctx, w)), memberList: members, agentList: await Promise.all(agents.map(async (a) => await presentAgent(a))) };
}

/** Name, tier and paused state, each only when given. */
export async function editWorkspace(ctx: AgentsContext, id: string, patch: { name?: string; tier?: string; paused?: boolean }) {
  const w = await workspaceById(ctx, id);
  await updateWorkspace(ctx.db, w.id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.tier !== undefined ? { tier: patch.tier } : {}),
    ...(patch.paused !== undefined ? { paused: patch.paused ? 1 : 0 } : {}),
  });
  return presentWorkspace(ctx, await workspaceById(ctx, w.id));
}

export async function agentById(ctx: AgentsContext, id: string): Promise<AgentRow> {
  const a = await findAgent(ctx.db, id);
  if (!a) throw notFound('agent not found');
  return a;
}

const presentDirectoryAgent = async (a: AgentRow) => ({ ...(await presentAgent(a)), workspaceId: a.workspace_id });

export async function searchAgents(ctx: AgentsContext, search: string, workspace: string | undefined, limit: number, offset: number) {
  const [total, rows] = await Promise.all([countAgentsMatching(ctx.db, search, workspace), agentsMatching(ctx.db, search, workspace, limit, offset)]);
  return { total, agents: await Promise.all(rows.map(presentDirectoryAgent)) };
}

export async function agentDetail(ctx: AgentsContext, id: string) {
  const a = await agentById(ctx, id);
  return { agent: await presentDirectoryAgent(a), counts: await agentCounts(ctx.db, a.id) };
}

/** Status and visibility, each only when given. */
export async function editAgent(ctx: AgentsContext, a: AgentRow, patch: { status?: string; visibility?: string }) {
  await updateAgentFlags(ctx.db, a.id, patch, Date.now());
  return presentDirectoryAgent(await agentById(ctx, a.id));
}

export async function removeAgent(ctx: AgentsContext, a: AgentRow): Promise<void> {
  await deleteAgent(ctx, a.workspace_id, a.id);
}
