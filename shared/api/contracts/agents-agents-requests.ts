/** Request contracts of the agent platform's  routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { sourceBody } from './agents-values';

export const fields = {
  model: z.string().trim().max(80).optional(),
  temperature: z.number().min(0).max(2).optional(),
  system_prompt: z.string().max(20_000).optional(),
  welcome_message: z.string().max(2_000).optional(),
  visibility: z.enum(['public', 'private']).optional(),
  status: z.enum(['active', 'paused', 'draft']).optional(),
  emoji: z.string().max(16).optional(),
  color: z.string().max(32).optional(),
  avatar_url: z.string().max(2_000).optional(),
  companyName: z.string().trim().max(120).optional(),
  website: z.string().trim().max(300).optional(),
};

export const name = z.string().trim().min(1, 'name is required').max(80);

/** Request schemas of agents/agents.routes.ts, by route. */
export const agentsRequests = {
  'POST /api/agents': { body: z.object({ name, ...fields }) },
  'GET /api/agents/default-prompt': { query: z.object({ company: z.string().max(120).optional(), website: z.string().max(300).optional(), name: z.string().max(80).optional() }) },
  'GET /api/agents/company-info': { query: z.object({ url: z.string().min(1, 'url is required').max(2000) }) },
  'PATCH /api/agents/:id': { body: z.object({ name: name.optional(), ...fields }) },
  'POST /api/agents/:id/test': { body: z.object({
        message: z.string().trim().min(1, 'message is required').max(4_000),
        instructions: z.string().max(20_000).optional(),
        model: z.string().max(80).optional(),
        temperature: z.number().min(0).max(2).optional(),
      }) },
  'POST /api/agents/:id/sources': { body: sourceBody.extend({ name }) },
  'DELETE /api/agents/:id/sources/:sid': { params: z.object({ id: z.string().max(64), sid: z.string().max(64) }) },
};
