import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../core/http/openapi';
import { studioRoutes } from './app';
import { startStudio, type TestStudio } from './testing.testkit';

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: { properties?: object } }> }>;
}

let studio: TestStudio;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  studio = await startStudio();
  const res = await studio.call<{ openapi: string; paths: typeof paths }>('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  paths = res.body.paths;
});
afterAll(() => studio.close());

describe('GET /api/openapi.json (studio)', () => {
  it('lists every studio route with its path parameters, body and a response schema naming its fields', () => {
    const missing: string[] = [];
    for (const r of studioRoutes) {
      const key = `${r.method.toUpperCase()} ${r.path}`;
      const op = paths[openApiPath(r.path)]?.[r.method];
      if (!op) {
        missing.push(`${key}: not in the document`);
        continue;
      }
      for (const name of [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
        if (!op.parameters?.some((p) => p.in === 'path' && p.name === name)) missing.push(`${key}: path parameter ${name}`);
      }
      if (r.body && !op.requestBody?.content['application/json']) missing.push(`${key}: request body`);
      const schema = op.responses['200']?.content?.['application/json']?.schema;
      if (!r.response || !schema || Object.keys(schema.properties ?? {}).length === 0) missing.push(`${key}: response schema`);
    }
    expect(missing).toEqual([]);
  });
});
