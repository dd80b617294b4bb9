/** Wire contract of the API's own description (GET /api/openapi.json). */
import { z } from 'zod';

const Operation = z.looseObject({
  operationId: z.string(),
  parameters: z.array(z.looseObject({ name: z.string(), in: z.enum(['path', 'query']), required: z.boolean(), schema: z.looseObject({}) })).optional(),
  requestBody: z.looseObject({ content: z.record(z.string(), z.looseObject({ schema: z.looseObject({}) })) }).optional(),
  responses: z.record(z.string(), z.looseObject({ description: z.string(), content: z.record(z.string(), z.looseObject({ schema: z.looseObject({}) })).optional() })),
});

/** An OpenAPI 3.1 document: every route by path and method, with its request and response schemas. */
export const OpenApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), Operation)),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;
