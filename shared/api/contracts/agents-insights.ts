/** Response contracts of the agent platform's insights routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import { ConversationRecord } from './agents-records';

export const KpisRecord = z.looseObject({
  agents: z.number(),
  sources: z.number(),
  conversations: z.number(),
  conversations7d: z.number(),
  messages: z.number(),
  leads: z.number(),
  contacts: z.number(),
  openHandoffs: z.number(),
  thumbsUp: z.number(),
  thumbsDown: z.number(),
  credits: z.number(),
  usedThisMonth: z.number(),
  allowance: z.number(),
  sentiment: z.looseObject({ positive: z.number(), neutral: z.number(), negative: z.number() }),
});

/** Success bodies of insights/insights.routes.ts, by route. */
export const insightsResponses = {
  'GET /api/analytics/chats': z.looseObject({
    total: z.number(),
    messages: z.number(),
    last7: z.number(),
    series: z.array(z.looseObject({ date: z.string(), conversations: z.number(), messages: z.number() })),
    topCountries: z.array(z.looseObject({ country: z.string(), count: z.number() })),
    byChannel: z.array(z.looseObject({ channel: z.string(), count: z.number() })),
  }),
  'GET /api/analytics/sentiment': z.looseObject({
    positive: z.number(),
    neutral: z.number(),
    negative: z.number(),
    total: z.number(),
    score: z.number(),
  }),
  'GET /api/analytics/topics': z.looseObject({
    total: z.number(),
    topics: z.array(z.looseObject({ topic: z.string(), count: z.number(), examples: z.array(z.string()), share: z.number() })),
  }),
  'GET /api/assistant/analysis': z.looseObject({
    lang: z.string(),
    score: z.number(),
    kpis: KpisRecord,
    recommendations: z.array(z.looseObject({ id: z.string(), severity: z.string(), text: z.string() })),
    narrative: z.string(),
    unanswered: z.array(z.string()),
    engine: z.string(),
  }),
  'GET /api/dashboard/overview': z.looseObject({
    kpis: KpisRecord,
    recent: z.array(ConversationRecord),
  }),
  'GET /api/dashboard/usage': z.looseObject({
    used: z.number(),
    allowance: z.number(),
    remaining: z.number(),
    credits: z.number(),
    period: z.looseObject({ start: z.string(), end: z.string() }),
    perAgent: z.array(z.looseObject({ agentId: z.string(), name: z.string(), messages: z.number(), conversations: z.number() })),
  }),
  'POST /api/assistant/chat': z.looseObject({ reply: z.string(), engine: z.string(), lang: z.string() }),
};
