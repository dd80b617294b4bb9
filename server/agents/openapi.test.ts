import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../core/http/openapi';
import { startAgentsServer, type AgentsTestServer } from './harness.testkit';

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: { properties?: object } }> }>;
}

let server: AgentsTestServer;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  server = await startAgentsServer();
  const res = await server.api().get('/api/openapi.json');
  expect(res.status).toBe(200);
  const doc = res.body as unknown as { openapi: string; paths: typeof paths };
  expect(doc.openapi).toBe('3.1.0');
  paths = doc.paths;
});
afterAll(() => server.close());

describe('GET /api/openapi.json (agents, public)', () => {
  it('lists every mounted route with its path parameters, query and body', () => {
    const missing: string[] = [];
    for (const r of server.routes) {
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
    }
    expect(missing).toEqual([]);
  });

  it('publishes a response schema naming its fields for every JSON route', () => {
    const declared = server.routes.filter((r) => r.response && !r.produces);
    for (const r of declared) {
      const schema = paths[openApiPath(r.path)]?.[r.method]?.responses['200']?.content?.['application/json']?.schema;
      expect(Object.keys(schema?.properties ?? {}).length, `${r.method} ${r.path}`).toBeGreaterThan(0);
    }
    // a route that answers something other than JSON (CSV, audio, a file, a redirect) names its content type instead
    expect(server.routes.filter((r) => !r.response && !r.produces).map((r) => `${r.method.toUpperCase()} ${r.path}`)).toEqual([]);
  });
});
