import { z } from 'zod';
import type { AgentsContext } from '../context';
import { perWorkspace, route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import type { TurnInput } from './chat.service';
import { answerTurn, countryOf, MESSAGE_MAX, wantsStream } from './turn';
import { chatResponses } from '../../../shared/api/contracts/agents-chat';

export function chatRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'post',
      path: '/api/chat', response: chatResponses['POST /api/chat'],
      auth: 'bearer',
      before: perWorkspace(ctx.limits.chat),
      query: z.object({ stream: z.string().optional(), agent: z.string().max(64).optional() }),
      body: z.object({
        agentId: z.string().max(64).optional(),
        message: z.string().trim().min(1, 'message is required').max(MESSAGE_MAX, `message must be at most ${MESSAGE_MAX} characters`),
        conversationId: z.string().max(64).optional(),
        stream: z.union([z.boolean(), z.string()]).optional(),
        channel: z.string().trim().max(40).optional(),
      }),
      handler: async ({ caller, query, body, req, res }) => {
        const agent = selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        const input: TurnInput = { agent, message: body.message, conversationId: body.conversationId, channel: body.channel || 'api', visitor: caller.userId, country: countryOf(req) };
        return answerTurn(ctx, res, input, wantsStream(req, body), (r) => ({ ...r }));
      },
    }),
  ];
}
