import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent, selectAgent } from '../agents/agents.service';
import { csvReply, CSV_MAX_ROWS } from '../csv';
import { deliverOperatorReply } from '../channels/delivery';
import { correct, feedbackStats, getConversation, getMessage, inbox, listConversations, messagesOf, operatorReply, presentConversation, presentMessage, setHandoff } from './conversations.service';
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
        conversations: listConversations(ctx, caller.ws, { agentId: await scopedAgent(caller.ws, query.agent), channel: query.channel || undefined, limit: Math.min(200, Math.max(1, query.limit ?? 50)) }),
      }),
    }),
    route({
      method: 'get',
      path: '/api/conversations/inbox', response: conversationsResponses['GET /api/conversations/inbox'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => ({ conversations: inbox(ctx, caller.ws, await scopedAgent(caller.ws, query.agent)) }),
    }),
    route({
      method: 'get',
      path: '/api/conversations/channels', response: conversationsResponses['GET /api/conversations/channels'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const agentId = await scopedAgent(caller.ws, query.agent);
        const rows = ctx.legacyDb
          .prepare(`SELECT DISTINCT channel FROM conversations WHERE workspace_id = ? ${agentId ? 'AND agent_id = ?' : ''} ORDER BY channel`)
          .all(...(agentId ? [caller.ws, agentId] : [caller.ws])) as { channel: string }[];
        return { channels: rows.map((r) => r.channel) };
      },
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
        const agentId = await scopedAgent(caller.ws, query.agent);
        const rows = ctx.legacyDb
          .prepare(
            `SELECT c.id AS cid, c.agent_id, c.channel, c.handoff, c.country, m.id AS mid, m.role, m.text, m.feedback, m.created_at
               FROM messages m JOIN conversations c ON c.id = m.conversation_id
              WHERE c.workspace_id = ? ${agentId ? 'AND c.agent_id = ?' : ''} ORDER BY m.seq DESC LIMIT ?`,
          )
          .all(...(agentId ? [caller.ws, agentId] : [caller.ws]), CSV_MAX_ROWS) as Record<string, string | number | null>[];
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
        const r = ctx.legacyDb.prepare('DELETE FROM conversations WHERE workspace_id = ? AND agent_id = ?').run(caller.ws, agent.id);
        return { ok: true, deleted: r.changes };
      },
    }),
    route({
      method: 'get',
      path: '/api/conversations/:cid', response: conversationsResponses['GET /api/conversations/:cid'],
      auth: 'bearer',
      params: cidParam,
      handler: ({ caller, params }) => {
        const c = getConversation(ctx, caller.ws, params.cid);
        return { conversation: { ...presentConversation(c), messages: messagesOf(ctx, c.id).map(presentMessage) } };
      },
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
        const delivery = await deliverOperatorReply(ctx, params.cid, body.text);
        return delivery ? { ...out, delivery } : out;
      },
    }),
    route({
      method: 'patch',
      path: '/api/conversations/:cid/handoff', response: conversationsResponses['PATCH /api/conversations/:cid/handoff'],
      auth: 'editor',
      params: cidParam,
      body: conversationsRequests['PATCH /api/conversations/:cid/handoff'].body,
      handler: ({ caller, params, body }) => ({ conversation: presentConversation(setHandoff(ctx, caller.ws, params.cid, body.action)) }),
    }),
    route({
      method: 'patch',
      path: '/api/conversations/:cid/messages/:mid', response: conversationsResponses['PATCH /api/conversations/:cid/messages/:mid'],
      auth: 'editor',
      params: conversationsRequests['PATCH /api/conversations/:cid/messages/:mid'].params,
      body: conversationsRequests['PATCH /api/conversations/:cid/messages/:mid'].body,
      handler: ({ caller, params, body }) => {
        getConversation(ctx, caller.ws, params.cid);
        getMessage(ctx, params.cid, params.mid);
        ctx.legacyDb.prepare('UPDATE messages SET feedback = ? WHERE id = ?').run(body.feedback, params.mid);
        return { message: presentMessage(getMessage(ctx, params.cid, params.mid)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/conversations/:cid/messages/:mid/correct', response: conversationsResponses['POST /api/conversations/:cid/messages/:mid/correct'],
      auth: 'editor',
      params: conversationsRequests['POST /api/conversations/:cid/messages/:mid/correct'].params,
      body: conversationsRequests['POST /api/conversations/:cid/messages/:mid/correct'].body,
      handler: ({ caller, params, body }) => correct(ctx, caller.ws, params.cid, params.mid, body.answer),
    }),
    route({
      method: 'patch',
      path: '/api/conversations/:cid', response: conversationsResponses['PATCH /api/conversations/:cid'],
      auth: 'editor',
      params: cidParam,
      body: conversationsRequests['PATCH /api/conversations/:cid'].body,
      handler: ({ caller, params, body }) => {
        getConversation(ctx, caller.ws, params.cid);
        ctx.legacyDb.prepare('UPDATE conversations SET feedback = ? WHERE id = ?').run(body.feedback, params.cid);
        return { conversation: presentConversation(getConversation(ctx, caller.ws, params.cid)) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/conversations/:cid', response: conversationsResponses['DELETE /api/conversations/:cid'],
      auth: 'editor',
      params: cidParam,
      handler: ({ caller, params }) => {
        getConversation(ctx, caller.ws, params.cid);
        ctx.legacyDb.prepare('DELETE FROM conversations WHERE id = ? AND workspace_id = ?').run(params.cid, caller.ws);
        return { ok: true };
      },
    }),
  ];
}
