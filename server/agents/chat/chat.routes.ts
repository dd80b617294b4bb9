import type { AgentsContext } from '../context';
import { perWorkspace, route, type AgentRoute } from '../http';
import { selectAgent } from '../agents/agents.service';
import type { TurnInput } from './chat.service';
import { answerTurn, countryOf, wantsStream } from './turn';
import { chatResponses } from '../../../shared/api/contracts/agents-chat';
import { chatRequests } from '../../../shared/api/contracts/agents-chat-requests';

export function chatRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'post',
      path: '/api/chat', response: chatResponses['POST /api/chat'],
      auth: 'editor',
      before: perWorkspace(ctx.limits.chat),
      query: chatRequests['POST /api/chat'].query,
      body: chatRequests['POST /api/chat'].body,
      handler: async ({ caller, query, body, req, res }) => {
        const agent = await selectAgent(ctx, caller.ws, body.agentId ?? query.agent);
        const input: TurnInput = { agent, message: body.message, conversationId: body.conversationId, channel: body.channel || 'api', visitor: caller.userId, country: countryOf(req) };
        return await answerTurn(ctx, res, input, wantsStream(req, body), (r) => ({ ...r }));
      },
    }),
  ];
}
