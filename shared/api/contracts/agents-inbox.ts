/** Response contracts of the agent platform's inbox routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import { ConversationRecord, MessageRecord, SourceRecord } from './agents-records';

/** Success bodies of inbox/conversations.routes.ts, by route. */
export const conversationsResponses = {
  'DELETE /api/conversations': z.looseObject({ ok: z.boolean(), deleted: z.number() }),
  'DELETE /api/conversations/:cid': z.looseObject({ ok: z.boolean() }),
  'GET /api/conversations': z.looseObject({ conversations: z.array(ConversationRecord) }),
  'GET /api/conversations/:cid': z.looseObject({ conversation: ConversationRecord }),
  'GET /api/conversations/channels': z.looseObject({ channels: z.array(z.string()) }),
  'GET /api/conversations/feedback-stats': z.looseObject({
    up: z.number(),
    down: z.number(),
    total: z.number(),
    // null until a reply has a thumb
    rate: z.number().nullable(),
    conversations: z.looseObject({ up: z.number(), down: z.number() }),
  }),
  'GET /api/conversations/inbox': z.looseObject({ conversations: z.array(ConversationRecord) }),
  'PATCH /api/conversations/:cid': z.looseObject({ conversation: ConversationRecord }),
  'PATCH /api/conversations/:cid/handoff': z.looseObject({ conversation: ConversationRecord }),
  'PATCH /api/conversations/:cid/messages/:mid': z.looseObject({ message: MessageRecord }),
  'POST /api/conversations/:cid/messages/:mid/correct': z.looseObject({ ok: z.boolean(), source: SourceRecord }),
  'POST /api/conversations/:cid/reply': z.looseObject({
    message: MessageRecord,
    conversation: ConversationRecord,
    delivery: z.looseObject({ channel: z.string(), delivered: z.boolean(), error: z.string().nullable() }).optional(),
  }),
};
