/** Request contracts of the agent platform's callbacks routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';

/** Request schemas of callbacks/callbacks.routes.ts, by route. */
export const callbacksRequests = {
  'GET /api/whatsapp/webhook': { query: z.object({ 'hub.mode': z.string().max(40).optional(), 'hub.verify_token': z.string().max(500).optional(), 'hub.challenge': z.string().max(500).optional() }) },
};
