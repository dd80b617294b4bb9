import { z } from 'zod';
import { SOURCE_TYPES } from './sources.service';

/** Body of a new source (both /api/sources and /api/agents/{id}/sources). */
export const sourceBody = z.object({
  type: z.enum(SOURCE_TYPES, 'type must be text, qa, file, website or social'),
  name: z.string().trim().max(200).optional(),
  content: z.string().max(5_000_000).optional(),
  url: z.string().trim().max(2_000).optional(),
  question: z.string().max(4_000).optional(),
  answer: z.string().max(20_000).optional(),
  dataBase64: z.string().optional(),
  mime: z.string().max(200).optional(),
  sizeKb: z.number().int().min(0).max(1_000_000).optional(),
  maxPages: z.number().int().min(1).max(200).optional(),
});
