import { z } from 'zod';
import { conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { countContacts } from '../crm/contacts.repository';
import { countLeads } from '../crm/leads.repository';
import * as repo from './campaigns.repository';
import type { audienceSchema } from '../../../shared/api/contracts/agents-workspace-settings-requests';

export type Audience = z.infer<typeof audienceSchema>;

/** How many people the audience reaches now (leads with an address, contacts). */
async function audienceSize(ctx: AgentsContext, ws: string, agentId: string | null, a: Audience): Promise<number> {
  const leads = () => countLeads(ctx.db, ws, agentId, a.status);
  const contacts = () => countContacts(ctx.db, ws, agentId);
  return a.type === 'leads' ? leads() : a.type === 'contacts' ? contacts() : (await leads()) + (await contacts());
}

async function template(ctx: AgentsContext, ws: string, id: string) {
  const t = await repo.templateById(ctx.db, ws, id);
  if (!t) throw notFound('template not found');
  return t;
}

export const listTemplates = (ctx: AgentsContext, ws: string, agentId: string | undefined) => repo.listTemplates(ctx.db, ws, agentId, 500);

export async function createTemplate(ctx: AgentsContext, ws: string, agentId: string, input: { name: string; type: string; body: string }) {
  const id = newId('tpl');
  const now = Date.now();
  await repo.insertTemplate(ctx.db, { id, workspace_id: ws, agent_id: agentId, ...input, created_at: now, updated_at: now });
  return template(ctx, ws, id);
}

export async function campaign(ctx: AgentsContext, ws: string, id: string) {
  const c = await repo.campaignById(ctx.db, ws, id);
  if (!c) throw notFound('campaign not found');
  return c;
}

export const listCampaigns = (ctx: AgentsContext, ws: string, agentId: string | undefined) => repo.listCampaigns(ctx.db, ws, agentId, 500);

export async function createCampaign(
  ctx: AgentsContext, ws: string, agentId: string,
  input: { name: string; channel: string; repliesMode: string; templateId: string | null; audience: Audience },
) {
  if (input.templateId) await template(ctx, ws, input.templateId);
  const id = newId('cmp');
  const now = Date.now();
  await repo.insertCampaign(ctx.db, {
    id, workspace_id: ws, agent_id: agentId, name: input.name, channel: input.channel, replies_mode: input.repliesMode, template_id: input.templateId,
    audience: JSON.stringify(input.audience), created_at: now, updated_at: now,
  });
  return campaign(ctx, ws, id);
}

/** Sends a draft once: its audience is counted now; a second send (even a concurrent one) is refused. */
export async function sendCampaign(ctx: AgentsContext, ws: string, id: string) {
  const c = await campaign(ctx, ws, id);
  if (c.status === 'sent') throw conflict('campaign already sent');
  const recipients = await audienceSize(ctx, ws, c.agent_id, JSON.parse(c.audience) as Audience);
  if (!(await repo.markSent(ctx.db, ws, c.id, recipients, Date.now()))) throw conflict('campaign already sent');
  return campaign(ctx, ws, c.id);
}
