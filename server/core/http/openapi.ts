import { z } from 'zod';
import type { RouteShape } from './route-core';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as zod writes it. */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

/** The wire side of a schema: what a client sends (request) or reads (response) before any transform. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** Express path to OpenAPI path: /api/job/:id/devices → /api/job/{id}/devices. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
}

/** One parameter per property of an object schema (path params are always required). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', path: string): Parameter[] {
  if (where === 'path') {
    const props = schema ? ((jsonSchemaOf(schema).properties ?? {}) as Record<string, JsonSchema>) : {};
    return pathParamNames(path).map((name) => ({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } }));
  }
  if (!schema) return [];
  const json = jsonSchemaOf(schema);
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
}

const operationId = (r: RouteShape) =>
  `${r.method}${r.path
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replace(/^:/, 'by-'))
    .join('-')}`.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));

/** The content types a route declares it answers with ('redirect' stands for a 302). */
export function producedTypes(r: RouteShape): string[] {
  return r.produces === undefined ? [] : typeof r.produces === 'string' ? [r.produces] : [...r.produces];
}

function successResponses(r: RouteShape): Record<string, unknown> {
  const types = producedTypes(r);
  const out: Record<string, unknown> = {};
  if (types.includes('redirect')) out['302'] = { description: 'redirect', headers: { Location: { schema: { type: 'string' } } } };
  const media = types.filter((t) => t !== 'redirect');
  if (media.length) {
    const content: Record<string, unknown> = {};
    for (const t of media) content[t] = { schema: r.response && t.includes('json') ? jsonSchemaOf(r.response) : { type: 'string' } };
    out['200'] = { description: media.join(' or '), content };
  } else if (!types.length) {
    out['200'] = r.response
      ? { description: 'success', content: { 'application/json': { schema: jsonSchemaOf(r.response) } } }
      : { description: 'success (no declared schema)' };
  }
  return out;
}

/**
 * The OpenAPI 3.1 document of a list of routes, written from the same zod schemas that validate
 * their input (params, query, body) and, in tests, their success bodies.
 */
export function openApiDocument(info: OpenApiInfo, routes: readonly RouteShape[], errorBody: z.ZodType): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const error = { description: 'failure', content: { 'application/json': { schema: jsonSchemaOf(errorBody) } } };
  for (const r of routes) {
    const item = (paths[openApiPath(r.path)] ??= {});
    const params = [...parameters(r.params, 'path', r.path), ...parameters(r.query, 'query', r.path)];
    const op: Record<string, unknown> = { operationId: operationId(r) };
    if (params.length) op.parameters = params;
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(r.body) } } };
    op.responses = { ...successResponses(r), default: error };
    item[r.method] = op;
  }
  return { openapi: '3.1.0', info, paths };
}
