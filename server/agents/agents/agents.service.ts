import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { agentById, agentByPublic, agentsWithCounts, deleteAgentRows, firstAgent, insertAgent, updateAgentColumns, type AgentRecord } from './agents.repository';
import { defaultPrompt } from './persona';

/** The welcome an agent gets when its owner writes none; the widget shows it in the visitor's language instead. */
export const defaultWelcome = (name: string): string => `Hi! I'm ${name}. How can I help you today?`;

export type AgentRow = AgentRecord;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export function presentAgent(a: AgentRow) {
  return {
    id: a.id,
    name: a.name,
    model: a.model,
    temperature: a.temperature,
    system_prompt: a.system_prompt,
    welcome_message: a.welcome_message,
    visibility: a.visibility,
    status: a.status,
    emoji: a.emoji,
    color: a.color,
    avatar_url: a.avatar_url,
    companyName: a.company_name,
    website: a.website,
    public_id: a.public_id,
    agent_email: a.agent_email,
    last_trained_at: iso(a.last_trained_at),
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
  };
}

/** One agent of the workspace; another workspace's id answers 404 like an unknown one. */
export async function getAgent(ctx: AgentsContext, ws: string, id: string): Promise<AgentRow> {
  const a = await agentById(ctx.db, ws, id);
  if (!a) throw notFound('agent not found');
  return a;
}

/** The agent a request selects (`agent` query or `agentId` body); omitted means the workspace's first agent. */
export async function selectAgent(ctx: AgentsContext, ws: string, id: string | undefined | null): Promise<AgentRow> {
  if (id) return getAgent(ctx, ws, id);
  const a = await firstAgent(ctx.db, ws);
  if (!a) throw notFound('agent not found');
  return a;
}

export async function agentByPublicId(ctx: AgentsContext, publicId: string): Promise<AgentRow> {
  const a = await agentByPublic(ctx.db, publicId);
  if (!a) throw notFound('agent not found');
  return a;
}

export interface AgentInput {
  name?: string;
  model?: string;
  temperature?: number;
  system_prompt?: string;
  welcome_message?: string;
  visibility?: string;
  status?: string;
  emoji?: string;
  color?: string;
  avatar_url?: string;
  companyName?: string;
  website?: string;
}

export async function createAgent(ctx: AgentsContext, ws: string, input: AgentInput & { name: string }): Promise<AgentRow> {
  const id = newId('agt');
  const publicId = newId('pub', 12).slice(4);
  const now = Date.now();
  const slug = input.name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 24) || 'agent';
  await insertAgent(ctx.db, {
    id, workspace_id: ws, name: input.name, model: input.model || 'auto', temperature: input.temperature ?? 0.3,
    system_prompt: input.system_prompt || defaultPrompt(input.name, input.companyName ?? '', input.website ?? ''),
    welcome_message: input.welcome_message ?? defaultWelcome(input.name),
    visibility: input.visibility ?? 'public', status: input.status ?? 'active', emoji: input.emoji ?? '🤖', color: input.color ?? '#4f46e5',
    avatar_url: input.avatar_url ?? '', company_name: input.companyName ?? '', website: input.website ?? '', public_id: publicId,
    agent_email: `${slug}-${publicId}@${ctx.config.mailDomain}`, created_at: now, updated_at: now,
  });
  return getAgent(ctx, ws, id);
}

export async function updateAgent(ctx: AgentsContext, ws: string, id: string, input: AgentInput): Promise<AgentRow> {
  await getAgent(ctx, ws, id);
  const set = {
    name: input.name, model: input.model, temperature: input.temperature, system_prompt: input.system_prompt, welcome_message: input.welcome_message,
    visibility: input.visibility, status: input.status, emoji: input.emoji, color: input.color, avatar_url: input.avatar_url,
    company_name: input.companyName, website: input.website,
  };
  // Kysely leaves undefined columns out of the SET list.
  if (Object.values(set).some((v) => v !== undefined)) await updateAgentColumns(ctx.db, ws, id, { ...set, updated_at: Date.now() });
  return getAgent(ctx, ws, id);
}

export async function listAgents(ctx: AgentsContext, ws: string) {
  const rows = await agentsWithCounts(ctx.db, ws);
  return rows.map((r) => ({ ...presentAgent(r), conversations: r.conversation_count ?? 0, sources: r.source_count ?? 0, leads: r.lead_count ?? 0 }));
}

export async function deleteAgent(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  await getAgent(ctx, ws, id);
  await deleteAgentRows(ctx.db, ws, id);
}
