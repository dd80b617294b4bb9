import { AgentQuery, IdParam } from '../../../shared/api/contracts/agents-common';
import { EVENT_NAMES } from '../../../shared/api/contracts/agents-values';
import { badRequest, notFound } from '../../core/errors';
import type { OutboundPolicy } from '../../core/security/ssrf';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { newId } from '../ids';

import { getAgent } from '../agents/agents.service';
import { assertPublicUrl } from '../knowledge/net-guard';
import { MAX_ATTEMPTS, RETRY_DELAYS_S, workspaceSecret, type DeliveryRow, type WebhookDispatcher } from './dispatcher';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TOLERANCE_SECONDS } from './sender';
import { webhooksResponses } from '../../../shared/api/contracts/agents-webhooks';
import { webhooksRequests } from '../../../shared/api/contracts/agents-webhooks-requests';

const MAX_WEBHOOKS = 20;
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

interface WebhookRow {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  url: string;
  events: string;
  created_at: number;
}

const present = (w: WebhookRow) => ({ id: w.id, agentId: w.agent_id, url: w.url, events: JSON.parse(w.events) as string[], created_at: iso(w.created_at) });

/** A delivery as written: never the payload body, never the secret. */
const presentDelivery = (d: DeliveryRow) => ({
  id: d.id,
  delivery_id: d.delivery_id,
  webhook_id: d.webhook_id,
  agentId: d.agent_id,
  event: d.event,
  url: d.url,
  status: d.status,
  ok: d.ok === 1,
  state: d.state,
  attempts: d.attempts,
  error: d.error,
  next_attempt_at: d.state === 'pending' ? iso(d.next_attempt_at) : null,
  created_at: iso(d.created_at),
});

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
  const find = (ws: string, id: string) => {
    const w = ctx.legacyDb.prepare('SELECT * FROM webhooks WHERE id = ? AND workspace_id = ?').get(id, ws) as WebhookRow | undefined;
    if (!w) throw notFound('webhook not found');
    return w;
  };
  return [
    route({
      method: 'get',
      path: '/api/webhooks', response: webhooksResponses['GET /api/webhooks'],
      auth: 'bearer',
      query: AgentQuery,
      handler: async ({ caller, query }) => {
        const agent = query.agent ? (await getAgent(ctx, caller.ws, query.agent)).id : null;
        const rows = (agent
          ? ctx.legacyDb.prepare('SELECT * FROM webhooks WHERE workspace_id = ? AND (agent_id IS NULL OR agent_id = ?) ORDER BY created_at, id').all(caller.ws, agent)
          : ctx.legacyDb.prepare('SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, id').all(caller.ws)) as WebhookRow[];
        return { webhooks: rows.map(present), events: [...EVENT_NAMES] };
      },
    }),
    route({
      method: 'get',
      path: '/api/webhooks/secret', response: webhooksResponses['GET /api/webhooks/secret'],
      auth: 'owner',
      handler: ({ caller }) => ({ secret: workspaceSecret(ctx, caller.ws), scheme: SIGNING_SCHEME, ...SIGNING_SCHEME }),
    }),
    route({
      method: 'get',
      path: '/api/webhooks/deliveries', response: webhooksResponses['GET /api/webhooks/deliveries'],
      auth: 'bearer',
      query: webhooksRequests['GET /api/webhooks/deliveries'].query,
      handler: async ({ caller, query }) => {
        const agent = query.agent ? (await getAgent(ctx, caller.ws, query.agent)).id : null;
        const rows = (agent
          ? ctx.legacyDb.prepare('SELECT * FROM webhook_deliveries WHERE workspace_id = ? AND agent_id = ? ORDER BY seq DESC LIMIT ?').all(caller.ws, agent, query.limit)
          : ctx.legacyDb.prepare('SELECT * FROM webhook_deliveries WHERE workspace_id = ? ORDER BY seq DESC LIMIT ?').all(caller.ws, query.limit)) as DeliveryRow[];
        return { deliveries: rows.map(presentDelivery) };
      },
    }),
    route({
      method: 'post',
      path: '/api/webhooks', response: webhooksResponses['POST /api/webhooks'],
      auth: 'editor',
      query: AgentQuery,
      body: webhooksRequests['POST /api/webhooks'].body,
      handler: async ({ caller, query, body }) => {
        const url = (await assertPublicUrl(body.url, { allowPrivate, httpsOnly: true })).toString();
        const pick = body.agentId ?? query.agent;
        // Convention: omitted means the workspace's first agent; before any agent exists the endpoint covers the workspace.
        const first = ctx.legacyDb.prepare('SELECT id FROM agents WHERE workspace_id = ? ORDER BY created_at, id LIMIT 1').get(caller.ws) as { id: string } | undefined;
        const agentId = pick ? (await getAgent(ctx, caller.ws, pick)).id : first?.id ?? null;
        const count = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM webhooks WHERE workspace_id = ?').get(caller.ws) as { n: number }).n;
        if (count >= MAX_WEBHOOKS) throw badRequest(`at most ${MAX_WEBHOOKS} webhooks per workspace`);
        const id = newId('whk');
        const events = [...new Set(body.events)];
        ctx.legacyDb.prepare('INSERT INTO webhooks (id, workspace_id, agent_id, url, events, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, caller.ws, agentId, url, JSON.stringify(events), Date.now());
        workspaceSecret(ctx, caller.ws);
        return { webhook: present(find(caller.ws, id)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/webhooks/:id/test', response: webhooksResponses['POST /api/webhooks/:id/test'],
      auth: 'editor',
      params: IdParam,
      handler: async ({ caller, params }) => {
        const w = find(caller.ws, params.id);
        const body = JSON.stringify({ event: 'webhook.test', created_at: new Date().toISOString(), data: { webhookId: w.id, message: 'This is a test event.' } });
        const queued = dispatcher.enqueue(w, 'webhook.test', body);
        const d = await dispatcher.attempt(queued);
        return { ok: d.ok === 1, delivery: presentDelivery(d) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/webhooks/:id', response: webhooksResponses['DELETE /api/webhooks/:id'],
      auth: 'editor',
      params: IdParam,
      handler: ({ caller, params }) => {
        find(caller.ws, params.id);
        ctx.legacyDb.prepare('DELETE FROM webhooks WHERE id = ?').run(params.id);
        dispatcher.cancelFor(params.id);
        return { ok: true };
      },
    }),
  ];
}
