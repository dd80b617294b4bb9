import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import { DomainError, badRequest } from '../core/errors';
import { mountRouteList, type Method, type RouteResult } from '../core/http/route-core';
import { RateLimiter } from '../core/http/rate-limit';
import { jsonBodiesOnly } from '../core/http/json-body';
import type { AgentsContext, Caller } from './context';
import { authenticate } from './accounts/session';
import { AGENT_ACCESS, clientIp, type AgentAuth } from './request';
import { authorize } from './roles';
import { assertDeclaredAccess } from '../core/http/route-access';

export { clientIp, createLimits, type AgentAuth, type AgentsLimits } from './request';


export interface AgentRouteContext<P, Q, B> {
  caller: Caller;
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
}

export interface AgentRouteDef<P = unknown, Q = unknown, B = unknown> {
  method: Method;
  path: string;
  auth: AgentAuth;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Schema of the success body (checked in tests, published in /api/openapi.json). */
  response?: z.ZodType<unknown>;
  /** Content type(s) of a route that answers with a Reply instead of JSON. */
  produces?: string | readonly string[];
  /** Runs after authorization, before the input is read (rate limits, credit checks). */
  before?: (req: Request, caller: Caller) => void;
  /** Undefined when the handler answered itself (a server-sent-event stream). */
  handler: (ctx: AgentRouteContext<P, Q, B>) => Promise<RouteResult | undefined> | RouteResult | undefined;
}
export type AgentRoute = AgentRouteDef;

/** The one way to define a platform route: types of params, query and body flow from their schemas. */
export function route<P = Record<string, string>, Q = Record<string, unknown>, B = unknown>(def: AgentRouteDef<P, Q, B>): AgentRoute {
  return def as unknown as AgentRoute;
}

export { paymentRequired } from '../core/errors';

/** Per-IP limit as a route's `before` hook. */
export const perIp = (limiter: RateLimiter) => (req: Request) => limiter.hit(clientIp(req), 'rate limited');
/** Per-workspace limit as a route's `before` hook. */
export const perWorkspace = (limiter: RateLimiter) => (_req: Request, caller: Caller) => limiter.hit(caller.ws, 'rate limited');


function at(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** A validation failure answers 400 `{error:'<field> is required'}` or `{error:'<field>: <problem>'}`. */
function invalid(err: z.ZodError, value: unknown): DomainError {
  const first = err.issues[0];
  if (!first) return badRequest('invalid request');
  const field = first.path.map(String).join('.');
  if (field && at(value, first.path) === undefined) return badRequest(`${field} is required`);
  return badRequest(field ? `${field}: ${first.message}` : first.message);
}

const CALLER = Symbol('caller');
type WithCaller = Request & { [CALLER]?: Caller };

/** Mount the platform's routes on the core pipeline: authenticate, authorize, limit, validate, run; bare JSON on success. */
export function mountAgentRoutes(router: Router, ctx: AgentsContext, routes: AgentRoute[]): void {
  assertDeclaredAccess(routes, AGENT_ACCESS);
  mountRouteList(router, routes, {
    guard: async (r, req, res) => {
      const caller = await authenticate(ctx, req, res, r.auth);
      authorize(r.auth, caller);
      r.before?.(req, caller);
      (req as WithCaller)[CALLER] = caller;
    },
    run: async (r, input, req, res) => {
      const caller = (req as WithCaller)[CALLER] as Caller;
      const result = await r.handler({ caller, params: input.params, query: input.query, body: input.body, req, res });
      return result ?? { ok: true };
    },
    invalid,
    envelope: (result) => result,
  });
}

const MB = 1024 * 1024;

const RAW = new WeakMap<object, Buffer>();
/** The bytes of a JSON body as received (signed provider callbacks verify these, not the parsed value). */
export const rawBody = (req: Request): Buffer => RAW.get(req) ?? Buffer.alloc(0);
const keepRaw = (req: object, _res: unknown, buf: Buffer) => void RAW.set(req, buf);

/**
 * JSON bodies: 12 MB under /api/sources (uploads), 16 MB for advisor chat, 1 MB everywhere else. A body
 * that is not JSON (text/plain, a form post) is refused with 415 instead of read as empty; provider
 * callbacks, already read raw for their signatures, are left alone.
 */
export function jsonBodies(): express.RequestHandler[] {
  const small = express.json({ limit: MB, verify: keepRaw });
  const uploads = express.json({ limit: 12 * MB });
  const advisor = express.json({ limit: 16 * MB });
  const onlyJson = jsonBodiesOnly('Send request bodies as JSON (Content-Type: application/json).');
  return [
    (req, res, next) => (Buffer.isBuffer(req.body) ? next() : onlyJson(req, res, next)),
    (req, res, next) => {
      const p = req.path;
      if (p === '/api/sources' || p.startsWith('/api/sources/')) return uploads(req, res, next);
      if (p === '/api/assistant/chat') return advisor(req, res, next);
      return small(req, res, next);
    },
  ];
}

const PUBLIC_PREFIXES = ['/api/public/', '/api/config', '/api/content/', '/api/health'];

/** The widget API is CORS-open: any origin, no credentials, preflight answered here. */
export function publicCors(): express.RequestHandler {
  return (req, res, next) => {
    if (!PUBLIC_PREFIXES.some((p) => req.path === p || req.path.startsWith(p))) return next();
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
    res.setHeader('Access-Control-Max-Age', '600');
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
