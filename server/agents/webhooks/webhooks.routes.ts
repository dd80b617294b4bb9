import { AgentQuery, IdParam } from '../../../shared/api/contracts/agents-common';
import { EVENT_NAMES } from '../../../shared/api/contracts/agents-values';
import type { OutboundPolicy } from '../../core/security/ssrf';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent } from '../agents/agents.service';
import { assertPublicUrl } from '../knowledge/net-guard';
import { MAX_ATTEMPTS, RETRY_DELAYS_S, workspaceSecret, type WebhookDispatcher } from './dispatcher';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TOLERANCE_SECONDS } from './sender';
import { createWebhook, deliveriesOf, removeWebhook, testWebhook, webhooksOf } from './webhooks.service';
import { webhooksResponses } from '../../../shared/api/contracts/agents-webhooks';
import { webhooksRequests } from '../../../shared/api/contracts/agents-webhooks-requests';

/** The signing scheme receivers implement. */
const SIGNING_SCHEME = {
  header: SIGNATURE_HEADER,
  format: 't=<unix>,v1=<hex>',
  algorithm: 'HMAC-SHA256',
  signedPayload: '<t>.<raw request body>',
  toleranceSeconds: TOLERANCE_SECONDS,
  headers: [SIGNATURE_HEADER, EVENT_HEADER, DELIVERY_HEADER, 'Content-Type'],
  retries: MAX_ATTEMPTS - 1,
  retryDelaysSeconds: [...RETRY_DELAYS_S],
};

export function webhookRoutes(ctx: AgentsContext, dispatcher: WebhookDispatcher, allowPrivate: OutboundPolicy['allowInternal']): AgentRoute[] {
  const agentOf = async (ws: string, id: string | undefined | null) => (id ? (await getAgent(ctx, ws, id)).id : null);
  return [
    route({
      method: 'get',
      path: '/api/webhooks', response: webhooksResponses['GET /api/webhooks'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => ({ webhooks: await webhooksOf(ctx, caller.ws, await agentOf(caller.ws, query.agent)), events: [...EVENT_NAMES] }),
    }),
    route({
      method: 'get',
      path: '/api/webhooks/secret', response: webhooksResponses['GET /api/webhooks/secret'],
      auth: 'owner',
      handler: async ({ caller }) => ({ secret: await workspaceSecret(ctx, caller.ws), scheme: SIGNING_SCHEME, ...SIGNING_SCHEME }),
    }),
    route({
      method: 'get',
      path: '/api/webhooks/deliveries', response: webhooksResponses['GET /api/webhooks/deliveries'],
      auth: 'bearer',
      query: webhooksRequests['GET /api/webhooks/deliveries'].query,
      handler: async ({ caller, query }) => ({ deliveries: await deliveriesOf(ctx, caller.ws, await agentOf(caller.ws, query.agent), query.limit) }),
    }),
    route({
      method: 'post',
      path: '/api/webhooks', response: webhooksResponses['POST /api/webhooks'],
      auth: 'editor',
      query: AgentQuery,
      body: webhooksRequests['POST /api/webhooks'].body,
      handler: async ({ caller, query, body }) => {
        const url = (await assertPublicUrl(body.url, { allowPrivate, httpsOnly: true })).toString();
        const agentId = await agentOf(caller.ws, body.agentId ?? query.agent);
        return { webhook: await createWebhook(ctx, caller.ws, { url, events: body.events, agentId }) };
      },
    }),
    route({
      method: 'post',
      path: '/api/webhooks/:id/test', response: webhooksResponses['POST /api/webhooks/:id/test'],
      auth: 'editor',
      params: IdParam,
      handler: async ({ caller, params }) => testWebhook(ctx, dispatcher, caller.ws, params.id),
    }),
    route({
      method: 'delete',
      path: '/api/webhooks/:id', response: webhooksResponses['DELETE /api/webhooks/:id'],
      auth: 'editor',
      params: IdParam,
      handler: async ({ caller, params }) => {
        await removeWebhook(ctx, dispatcher, caller.ws, params.id);
        return { ok: true };
      },
    }),
  ];
}
