/** Response contracts of the agent platform's chat routes (docs/spec/agents-api.md). */
import { z } from 'zod';

/** Success bodies of chat/chat.routes.ts, by route. */
export const chatResponses = {
  'POST /api/chat': z.looseObject({
    conversationId: z.string(),
    captured: z.looseObject({ email: z.string(), phone: z.string().optional(), name: z.string().optional() }).nullable(),
    sources: z.array(z.looseObject({ sourceId: z.string(), score: z.number() })),
    reply: z.string().nullable(),
    messageId: z.string().nullable(),
    engine: z.string().nullable(),
    credits: z.number(),
    creditCost: z.number(),
    handoff: z.string(),
  }),
};
