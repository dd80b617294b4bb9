import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { stmt } from '../db';
import { defaultPrompt } from './persona';

/** The welcome an agent gets when its owner writes none; the widget shows it in the visitor's language instead. */
export const defaultWelcome = (name: string): string => `Hi! I'm ${name}. How can I help you today?`;

export interface AgentRow {
  id: string;
  workspace_id: string;
  name: string;
  model: string;
  temperature: number;
  system_prompt: string;
  welcome_message: string;
  visibility: string;
  status: string;
  emoji: string;
  color: string;
  avatar_url: string;
  company_name: string;
  website: string;
  public_id: string;
  agent_email: string;
  widget: string;
  last_trained_at: number | null;
  created_at: number;
  updated_at: number;
}

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
export function getAgent(ctx: AgentsContext, ws: string, id: string): AgentRow {
  const a = ctx.legacyDb.prepare('SELECT * FROM agents WHERE id = ? AND workspace_id = ?').get(id, ws) as AgentRow | undefined;
  if (!a) throw notFound('agent not found');
  return a;
}

/** The agent a request selects (`agent` query or `agentId` body); omitted means the workspace's first agent. */
export function selectAgent(ctx: AgentsContext, ws: string, id: string | undefined | null): AgentRow {
  if (id) return getAgent(ctx, ws, id);
  const a = ctx.legacyDb.prepare('SELECT * FROM agents WHERE workspace_id = ? ORDER BY created_at, id LIMIT 1').get(ws) as AgentRow | undefined;
  if (!a) throw notFound('agent not found');
  return a;
}

export function agentByPublicId(ctx: AgentsContext, publicId: string): AgentRow {
  const a = stmt(ctx.legacyDb, 'SELECT * FROM agents WHERE public_id = ?').get(publicId) as AgentRow | undefined;
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

export function createAgent(ctx: AgentsContext, ws: string, input: AgentInput & { name: string }): AgentRow {
  const id = newId('agt');
  const publicId = newId('pub', 12).slice(4);
  const now = Date.now();
  const slug = input.name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 24) || 'agent';
  ctx.legacyDb
    .prepare(
      `INSERT INTO agents (id, workspace_id, name, model, temperature, system_prompt, welcome_message, visibility, status, emoji, color,
         avatar_url, company_name, website, public_id, agent_email, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id, ws, input.name, input.model || 'auto', input.temperature ?? 0.3,
      input.system_prompt || defaultPrompt(input.name, input.companyName ?? '', input.website ?? ''),
      input.welcome_message ?? defaultWelcome(input.name),
      input.visibility ?? 'public', input.status ?? 'active', input.emoji ?? '🤖', input.color ?? '#4f46e5',
      input.avatar_url ?? '', input.companyName ?? '', input.website ?? '', publicId,
      `${slug}-${publicId}@${ctx.config.mailDomain}`, now, now,
    );
  return getAgent(ctx, ws, id);
}

const COLUMNS: Record<keyof AgentInput, string> = {
  name: 'name', model: 'model', temperature: 'temperature', system_prompt: 'system_prompt', welcome_message: 'welcome_message',
  visibility: 'visibility', status: 'status', emoji: 'emoji', color: 'color', avatar_url: 'avatar_url', companyName: 'company_name', website: 'website',
};

export function updateAgent(ctx: AgentsContext, ws: string, id: string, input: AgentInput): AgentRow {
  getAgent(ctx, ws, id);
  const sets: string[] = [];
  const vals: unknown[] = [];
  for (const [k, col] of Object.entries(COLUMNS) as [keyof AgentInput, string][]) {
    if (input[k] === undefined) continue;
    sets.push(`${col} = ?`);
    vals.push(input[k]);
  }
  if (sets.length) ctx.legacyDb.prepare(`UPDATE agents SET ${sets.join(', ')}, updated_at = ? WHERE id = ? AND workspace_id = ?`).run(...vals, Date.now(), id, ws);
  return getAgent(ctx, ws, id);
}

export function listAgents(ctx: AgentsContext, ws: string) {
  const rows = ctx.legacyDb
    .prepare(
      `SELECT a.*,
         (SELECT COUNT(*) FROM conversations c WHERE c.agent_id = a.id) AS conversation_count,
         (SELECT COUNT(*) FROM sources s WHERE s.agent_id = a.id) AS source_count,
         (SELECT COUNT(*) FROM leads l WHERE l.agent_id = a.id) AS lead_count
       FROM agents a WHERE a.workspace_id = ? ORDER BY a.created_at, a.id`,
    )
    .all(ws) as (AgentRow & { conversation_count: number; source_count: number; lead_count: number })[];
  return rows.map((r) => ({ ...presentAgent(r), conversations: r.conversation_count, sources: r.source_count, leads: r.lead_count }));
}

export function deleteAgent(ctx: AgentsContext, ws: string, id: string): void {
  getAgent(ctx, ws, id);
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare('DELETE FROM passages WHERE agent_id = ?').run(id);
    ctx.legacyDb.prepare('DELETE FROM agents WHERE id = ? AND workspace_id = ?').run(id, ws);
  })();
}
