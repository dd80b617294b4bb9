/** Response contracts of the agent platform's webhooks routes (docs/spec/agents-api.md). */
import { z } from 'zod';

export const DeliveryRecord = z.looseObject({
  id: z.string(),
  delivery_id: z.string(),
  webhook_id: z.string(),
  agentId: z.string().nullable(),
  event: z.string(),
  url: z.string(),
  status: z.number().nullable(),
  ok: z.boolean(),
  state: z.string(),
  attempts: z.number(),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});

/** A webhook endpoint: the agent it is scoped to (null: every agent), its URL and events. */
const WebhookRecord = z.looseObject({
  id: z.string(),
  agentId: z.string().nullable(),
  url: z.string(),
  events: z.array(z.string()),
  created_at: z.string(),
});

/** Success bodies of webhooks/webhooks.routes.ts, by route. */
export const webhooksResponses = {
  'DELETE /api/webhooks/:id': z.looseObject({ ok: z.boolean() }),
  'GET /api/webhooks': z.looseObject({
    webhooks: z.array(WebhookRecord),
    events: z.array(z.string()),
  }),
  'GET /api/webhooks/deliveries': z.looseObject({ deliveries: z.array(DeliveryRecord) }),
  'GET /api/webhooks/secret': z.looseObject({
    secret: z.string(),
    scheme: z.looseObject({
      header: z.string(),
      format: z.string(),
      algorithm: z.string(),
      signedPayload: z.string(),
      toleranceSeconds: z.number(),
      headers: z.array(z.string()),
      retries: z.number(),
      retryDelaysSeconds: z.array(z.number()),
    }),
    header: z.string(),
    format: z.string(),
    algorithm: z.string(),
    signedPayload: z.string(),
    toleranceSeconds: z.number(),
    headers: z.array(z.string()),
    retries: z.number(),
    retryDelaysSeconds: z.array(z.number()),
  }),
  'POST /api/webhooks': z.looseObject({ webhook: WebhookRecord }),
  'POST /api/webhooks/:id/test': z.looseObject({ ok: z.boolean(), delivery: DeliveryRecord }),
};
