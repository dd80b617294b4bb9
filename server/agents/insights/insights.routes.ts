import { AgentQuery } from '../../../shared/api/contracts/agents-common';
import { badRequest, tooLarge } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { paidTurn } from '../billing';
import { getAgent } from '../agents/agents.service';
import { decodeBase64 } from '../knowledge/extract';
import { presentConversation } from '../inbox/conversations.service';
import { chatAnalytics, monthStart, sentiment, topics } from './analytics.service';
import { advisorChat, analysis, kpis, type Attachment } from './advisor';
import { recentConversations, usagePerAgent } from './insights.service';
import { insightsResponses } from '../../../shared/api/contracts/agents-insights';
import { insightsRequests } from '../../../shared/api/contracts/agents-insights-requests';
const ATTACH_MAX = 16 * 1024 * 1024;

function attachment(raw: unknown, i: number): Attachment {
  const obj = typeof raw === 'string' ? { data: raw } : (raw as Record<string, unknown>);
  const data = typeof obj?.data === 'string' ? obj.data : typeof obj?.dataUrl === 'string' ? obj.dataUrl : typeof obj?.url === 'string' ? obj.url : '';
  const m = /^data:([^;,]*)(;[^,]*)?,/.exec(data);
  if (!m) throw badRequest(`attachments.${i}: expected a base64 data URL`);
  const buf = decodeBase64(data);
  const mime = m[1] || 'application/octet-stream';
  const text = /^text\/|json|csv/.test(mime) ? buf.toString('utf8') : null;
  return { name: typeof obj.name === 'string' ? obj.name.slice(0, 200) : `attachment-${i + 1}`, mime, bytes: buf.length, text };
}

export function insightRoutes(ctx: AgentsContext): AgentRoute[] {
  const agentOf = async (ws: string, id?: string) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  return [
    route({
      method: 'get',
      path: '/api/dashboard/overview', response: insightsResponses['GET /api/dashboard/overview'],
      auth: 'bearer',
      handler: async ({ caller }) => {
        const k = await kpis(ctx, caller.ws);
        const recent = await recentConversations(ctx, caller.ws);
        return { kpis: k, recent: recent.map(presentConversation) };
      },
    }),
    route({
      method: 'get',
      path: '/api/dashboard/usage', response: insightsResponses['GET /api/dashboard/usage'],
      auth: 'bearer',
      handler: async ({ caller }) => {
        const k = await kpis(ctx, caller.ws);
        const start = monthStart();
        const perAgent = await usagePerAgent(ctx, caller.ws, start);
        const end = new Date(start);
        end.setUTCMonth(end.getUTCMonth() + 1);
        return {
          used: k.usedThisMonth, allowance: k.allowance, remaining: Math.max(0, k.allowance - k.usedThisMonth), credits: k.credits,
          period: { start: new Date(start).toISOString(), end: end.toISOString() }, perAgent,
        };
      },
    }),
    route({ method: 'get', path: '/api/analytics/chats', response: insightsResponses['GET /api/analytics/chats'], auth: 'bearer', query: AgentQuery, handler: async ({ caller, query }) => chatAnalytics(ctx, caller.ws, await agentOf(caller.ws, query.agent)) }),
    route({ method: 'get', path: '/api/analytics/topics', response: insightsResponses['GET /api/analytics/topics'], auth: 'bearer', query: AgentQuery, handler: async ({ caller, query }) => topics(ctx, caller.ws, await agentOf(caller.ws, query.agent)) }),
    route({ method: 'get', path: '/api/analytics/sentiment', response: insightsResponses['GET /api/analytics/sentiment'], auth: 'bearer', query: AgentQuery, handler: async ({ caller, query }) => sentiment(ctx, caller.ws, await agentOf(caller.ws, query.agent)) }),
    route({
      method: 'get',
      path: '/api/assistant/analysis', response: insightsResponses['GET /api/assistant/analysis'],
      auth: 'bearer',
      query: insightsRequests['GET /api/assistant/analysis'].query,
      handler: ({ caller, query }) => paidTurn(ctx, caller.ws, 'advisor', () => analysis(ctx, caller.ws, query.lang ?? 'en')),
    }),
    route({
      method: 'post',
      path: '/api/assistant/chat', response: insightsResponses['POST /api/assistant/chat'],
      auth: 'editor',
      body: insightsRequests['POST /api/assistant/chat'].body,
      handler: ({ caller, body }) => {
        const files = body.attachments.map(attachment);
        if (files.reduce((a, f) => a + f.bytes, 0) > ATTACH_MAX) throw tooLarge('attachments too large');
        return paidTurn(ctx, caller.ws, 'advisor', () => advisorChat(ctx, caller.ws, body, files));
      },
    }),
  ];
}
