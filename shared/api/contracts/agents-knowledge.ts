/** Response contracts of the agent platform's knowledge routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import { SourceRecord } from './agents-records';

/** Success bodies of knowledge/sources.routes.ts, by route. */
export const sourcesResponses = {
  'DELETE /api/sources/:id': z.looseObject({ ok: z.boolean() }),
  'GET /api/sources': z.looseObject({ agentId: z.string(), sources: z.array(SourceRecord) }),
  'GET /api/sources/:id': z.looseObject({ source: SourceRecord }),
  'GET /api/sources/summary': z.looseObject({
    agentId: z.string(),
    total: z.number(),
    sizeKb: z.number(),
    chars: z.number(),
    passages: z.number(),
    byType: z.looseObject({ text: z.number(), qa: z.number(), file: z.number(), website: z.number(), social: z.number() }),
    byStatus: z.looseObject({ trained: z.number(), crawling: z.number(), failed: z.number() }),
    last_trained_at: z.string().nullable(),
  }),
  'PATCH /api/sources/:id': z.looseObject({ source: SourceRecord }),
  'POST /api/sources': z.looseObject({ source: SourceRecord }),
  'POST /api/sources/retrain': z.looseObject({
    ok: z.boolean(),
    sources: z.number(),
    passages: z.number(),
    last_trained_at: z.string(),
  }),
  'POST /api/sources/social': z.looseObject({ source: SourceRecord, avatar_url: z.string() }),
};
