import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent } from '../agents/agents.service';
import { csvReply, CSV_MAX_ROWS } from '../csv';
import { deliverOperatorReply } from '../channels/delivery';
import {
  channelsInUse, conversationDetail, correct, deleteAgentConversations, deleteConversation, exportRows, feedbackStats, inbox, listConversations, operatorReply,
  presentConversation, setConversationFeedback, setHandoff, setMessageFeedback,
} from './conversations.service';
import { conversationsResponses } from '../../../shared/api/contracts/agents-inbox';
import { conversationsRequests, cidParam, feedback } from '../../../shared/api/contracts/agents-inbox-requests';

export function conversationRoutes(ctx: AgentsContext): AgentRoute[] {
  const scopedAgent = async (ws: string, id: string | undefined) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  return [
    route({
      method: 'get',
      path: '/api/conversations', response: conversationsResponses['GET /api/conversations'],
      auth: 'bearer',
      query: conversationsRequests['GET /api/conversations'].query,
      handler: async ({ caller, query }) => ({
        conversations: await listConversations(ctx, caller.ws, { agentId: await scopedAgent(caller.ws, query.agent), channel: query.channel || undefined, limit: Math.min(200, Math.max(1, query.limit ?? 50)) }),
      }),
    }),
    route({
      method: 'get',
      path: '/api/conversations/inbox', response: conversationsResponses['GET /api/conversations/inbox'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => ({ conversations: await inbox(ctx, caller.ws, await scopedAgent(caller.ws, query.agent)) }),
    }),
    route({
      method: 'get',
      path: '/api/conversations/channels', response: conversationsResponses['GET /api/conversations/channels'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => ({ channels: await channelsInUse(ctx, caller.ws, await scopedAgent(caller.ws, query.agent)) }),
    }),
    route({
      method: 'get',
      path: '/api/conversations/feedback-stats', response: conversationsResponses['GET /api/conversations/feedback-stats'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => feedbackStats(ctx, caller.ws, await scopedAgent(caller.ws, query.agent)),
    }),
    route({
      method: 'get',
      path: '/api/conversations/export.csv', produces: 'text/csv',
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const rows = await exportRows(ctx, caller.ws, await scopedAgent(caller.ws, query.agent), CSV_MAX_ROWS);
        return csvReply('conversations.csv', ['conversation_id', 'agent_id', 'channel', 'handoff', 'country', 'message_id', 'role', 'text', 'feedback', 'created_at'],
          rows.map((r) => [r.cid, r.agent_id, r.channel, r.handoff, r.country, r.mid, r.role, r.text, r.feedback, new Date(Number(r.created_at)).toISOString()]));
      },
    }),
    route({
      method: 'delete',
      path: '/api/conversations', response: conversationsResponses['DELETE /api/conversations'],
      auth: 'editor',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const agent = await selectAgent(ctx, caller.ws, query.agent);
        return { ok: true, deleted: await deleteAgentConversations(ctx, caller.ws, agent.id) };
      },
    }),
    route({
      method: 'get',
      path: '/api/conversations/:cid', response: conversationsResponses['GET /api/conversations/:cid'],
      auth: 'bearer',
      params: cidParam,
      handler: async ({ caller, params }) => ({ conversation: await conversationDetail(ctx, caller.ws, params.cid) }),
    }),
    route({
      method: 'post',
      path: '/api/conversations/:cid/reply', response: conversationsResponses['POST /api/conversations/:cid/reply'],
      auth: 'editor',
      params: cidParam,
      body: conversationsRequests['POST /api/conversations/:cid/reply'].body,
      handler: async ({ caller, params, body }) => {
        const out = await operatorReply(ctx, caller.ws, params.cid, body.text, caller.userId);
        // A conversation that came in through team chat or messaging gets the reply there too.
        const delivery = await deliverOperatorReply(ctx, caller.ws, params.cid, body.text);
        return delivery ? { ...out, delivery } : out;
      },
    }),
    route({
      method: 'patch',
      path: '/api/conversations/:cid/handoff', response: conversationsResponses['PATCH /api/conversations/:cid/handoff'],
      auth: 'editor',
      params: cidParam,
      body: conversationsRequests['PATCH /api/conversations/:cid/handoff'].body,
      handler: async ({ caller, params, body }) => ({ conversation: presentConversation(await setHandoff(ctx, caller.ws, params.cid, body.action)) }),
    }),
    route({
      method: 'patch',
      path: '/api/conversations/:cid/messages/:mid', response: conversationsResponses['PATCH /api/conversations/:cid/messages/:mid'],
      auth: 'editor',
      params: conversationsRequests['PATCH /api/conversations/:cid/messages/:mid'].params,
      body: conversationsRequests['PATCH /api/conversations/:cid/messages/:mid'].body,
      handler: async ({ caller, params, body }) => ({ message: await setMessageFeedback(ctx, caller.ws, params.cid, params.mid, body.feedback) }),
    }),
    route({
      method: 'post',
      path: '/api/conversations/:cid/messages/:mid/correct', response: conversationsResponses['POST /api/conversations/:cid/messages/:mid/correct'],
      auth: 'editor',
      params: conversationsRequests['POST /api/conversations/:cid/messages/:mid/correct'].params,
      body: conversationsRequests['POST /api/conversations/:cid/messages/:mid/correct'].body,
      handler: async ({ caller, params, body }) => correct(ctx, caller.ws, params.cid, params.mid, body.answer),
    }),
    route({
      method: 'patch',
      path: '/api/conversations/:cid', response: conversationsResponses['PATCH /api/conversations/:cid'],
      auth: 'editor',
      params: cidParam,
      body: conversationsRequests['PATCH /api/conversations/:cid'].body,
      handler: async ({ caller, params, body }) => ({ conversation: presentConversation(await setConversationFeedback(ctx, caller.ws, params.cid, body.feedback)) }),
    }),
    route({
      method: 'delete',
      path: '/api/conversations/:cid', response: conversationsResponses['DELETE /api/conversations/:cid'],
      auth: 'editor',
      params: cidParam,
      handler: async ({ caller, params }) => {
        await deleteConversation(ctx, caller.ws, params.cid);
        return { ok: true };
      },
    }),
  ];
}
