/** Response contracts of the agent platform's callbacks routes (docs/spec/agents-api.md). */
import { z } from 'zod';

/** Success bodies of callbacks/callbacks.routes.ts, by route. */
export const callbacksResponses = {
  'POST /api/slack/events': z.looseObject({
    challenge: z.string().optional(),
    ok: z.boolean().optional(),
    duplicate: z.boolean().optional(),
  }),
  'POST /api/whatsapp/webhook': z.looseObject({ ok: z.boolean(), accepted: z.number() }),
};
