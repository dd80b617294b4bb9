import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { agentByPublicId, type AgentRow } from '../agents/agents.service';

/** A public agent by its public id; private or unknown agents answer 404. */
export async function publicAgent(ctx: AgentsContext, publicId: string): Promise<AgentRow> {
  const a = await agentByPublicId(ctx, publicId);
  if (a.visibility === 'private') throw notFound('agent not found');
  return a;
}
