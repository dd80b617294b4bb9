/** Request contracts of the agent platform's chat routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { MESSAGE_MAX } from './agents-values';

/** Request schemas of chat/chat.routes.ts, by route. */
export const chatRequests = {
  'POST /api/chat': { query: z.object({ stream: z.string().optional(), agent: z.string().max(64).optional() }), body: z.object({
        agentId: z.string().max(64).optional(),
        message: z.string().trim().min(1, 'message is required').max(MESSAGE_MAX, `message must be at most ${MESSAGE_MAX} characters`),
        conversationId: z.string().max(64).optional(),
        stream: z.union([z.boolean(), z.string()]).optional(),
        channel: z.string().trim().max(40).optional(),
      }) },
};
