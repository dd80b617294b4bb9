import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiPath, producedTypes } from '../../core/http/openapi';
import { allRoutes } from '../modules';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { PENDING_RESPONSE_SCHEMAS } from './openapi-pending.testkit';

interface Operation {
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

let server: TestServer;
let doc: Doc;
const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

beforeAll(async () => {
  server = await startTestServer();
  const res = await server.client().get<Doc>('/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => server.close());

/** The fields a JSON Schema names: its properties, or those every branch of a union names. */
function fieldsOf(schema: Record<string, unknown>): string[] {
  const branches = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (branches?.length) {
    const [first, ...rest] = branches.map(fieldsOf);
    return (first ?? []).filter((f) => rest.every((b) => b.includes(f)));
  }
  return Object.keys((schema.properties ?? {}) as object);
}

const props = (schema: z.ZodType | undefined) => Object.keys((schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }).properties ?? {}) : {}) as object);

describe('GET /api/openapi.json', () => {
  it('is a public OpenAPI 3.1 document that sets no cookie', async () => {
    const res = await server.client().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is read-only: a write to its path is not a route', async () => {
    const res = await server.client().post('/api/openapi.json', {});
    expect(res.status).toBe(404);
  });

  it('lists every registered route with its path, query and body schemas', () => {
    const missing: string[] = [];
    for (const r of allRoutes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method];
      if (!op) {
        missing.push(`${key(r)}: not in the document`);
        continue;
      }
      const params = op.parameters ?? [];
      for (const name of [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
        if (!params.some((p) => p.in === 'path' && p.name === name && p.required)) missing.push(`${key(r)}: path parameter ${name}`);
      }
      for (const name of props(r.query)) {
        if (!params.some((p) => p.in === 'query' && p.name === name)) missing.push(`${key(r)}: query parameter ${name}`);
      }
      if (r.body && !op.requestBody?.content['application/json']?.schema) missing.push(`${key(r)}: request body`);
    }
    expect(missing).toEqual([]);
    expect(Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)).toBe(allRoutes.length);
  });

  it('gives every route a response schema that names its fields, except the listed pending ones', () => {
    const without: string[] = [];
    for (const r of allRoutes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method];
      const content = op?.responses['200']?.content ?? {};
      const [type, media] = Object.entries(content)[0] ?? [];
      const types = producedTypes(r);
      // A route answering only non-JSON media or a redirect names those; a JSON answer needs its schema.
      const named = types.length > 0 && types.every((t) => !t.includes('json'));
      if (named && (media || op?.responses['302'])) continue;
      if (!media || !r.response) {
        without.push(key(r));
        continue;
      }
      // A JSON success body names its fields (a catch-all schema does not count); other media name their type.
      if (type?.includes('json')) expect(fieldsOf(media.schema).length, key(r)).toBeGreaterThan(0);
      if (!types.length) expect(fieldsOf(media.schema), key(r)).toContain('ok');
    }
    expect(without.sort()).toEqual([...PENDING_RESPONSE_SCHEMAS].sort());
  });

  it('gives every failure the error envelope', () => {
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) expect(op.responses.default?.content?.['application/json']?.schema.required).toContain('error');
    }
  });
});
