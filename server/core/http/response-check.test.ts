import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { takeViolations } from '../testing/response-contracts';
import { openApiDocument } from './openapi';
import { mountRouteList, Reply, type RouteShape } from './route-core';
import { errorHandler, type ErrorEnvelope } from './error-handler';
import { notFound } from '../errors';

interface TestRoute extends RouteShape {
  answer: () => Record<string, unknown> | Reply;
}

const routes: TestRoute[] = [
  { method: 'get', path: '/fits', response: z.looseObject({ ok: z.literal(true), n: z.number() }), answer: () => ({ n: 1, extra: 'x' }) },
  { method: 'get', path: '/breaks', response: z.looseObject({ ok: z.literal(true), n: z.number() }), answer: () => ({ n: 'one' }) },
  { method: 'get', path: '/reply', response: z.looseObject({ status: z.literal('ok') }), produces: 'application/json', answer: () => new Reply(200, '{"status":"down"}', { 'Content-Type': 'application/json' }) },
  { method: 'get', path: '/missing', answer: () => { throw notFound('item not found'); } },
  { method: 'post', path: '/item/:id', params: z.object({ id: z.string() }), query: z.object({ q: z.string().optional() }), body: z.object({ name: z.string() }), answer: () => ({}) },
];

let base = '';
let close: () => void = () => {};
beforeAll(async () => {
  const app = express();
  const router = express.Router();
  mountRouteList(router, routes, { run: (r) => r.answer() });
  app.use(router);
  // a service whose failure envelope drifted from the error schema it publishes
  const drifted: ErrorEnvelope = (e) => (e.error === 'item not found' ? { ok: false, error: 404 } : { ok: false, error: e.error });
  app.use(errorHandler(() => {}, drifted, z.looseObject({ ok: z.literal(false), error: z.string() })));
  const server = app.listen(0);
  await new Promise((ok) => server.once('listening', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('response contracts in tests', () => {
  it('lets a body that fits its schema (extra fields included) through unchanged', async () => {
    const res = await fetch(`${base}/fits`);
    expect(await res.json()).toEqual({ ok: true, n: 1, extra: 'x' });
    expect(takeViolations()).toEqual([]);
  });

  it('records a body outside its schema without changing the answer', async () => {
    const res = await fetch(`${base}/breaks`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, n: 'one' });
    const found = takeViolations();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^GET \/breaks: n: /);
  });

  it('checks failure bodies against the published error schema', async () => {
    const res = await fetch(`${base}/missing`);
    expect(res.status).toBe(404);
    expect(takeViolations()).toEqual([expect.stringMatching(/^GET \/missing: error: /)]);
    const invalid = await fetch(`${base}/item/1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(invalid.status).toBe(400);
    expect(takeViolations()).toEqual([]);
  });

  it('checks a bare JSON reply too', async () => {
    await fetch(`${base}/reply`);
    expect(takeViolations()).toEqual([expect.stringMatching(/^GET \/reply: status: /)]);
  });
});

describe('openApiDocument', () => {
  it('writes path, query, body and response schemas under the OpenAPI path', () => {
    const doc = openApiDocument({ title: 't', version: '1' }, routes, z.object({ ok: z.literal(false), error: z.string() })) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/item/{id}']?.post;
    expect(op?.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id', 'query:q']);
    expect(op?.requestBody).toEqual({ required: true, content: { 'application/json': { schema: expect.objectContaining({ required: ['name'] }) } } });
    expect(Object.keys(doc.paths['/fits']?.get?.responses['200']?.content ?? {})).toEqual(['application/json']);
    expect(doc.paths['/reply']?.get?.responses['200']?.content?.['application/json']).toEqual({ schema: expect.objectContaining({ required: ['status'] }) });
  });
});
