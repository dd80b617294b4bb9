import type { NextFunction, Request, Response, Router } from 'express';
import { z } from 'zod';
import { badRequest, type DomainError } from '../errors';

export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** A non-JSON answer (CSV, PDF, HTML, a bare JSON body outside the envelope). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

export type RouteResult = Record<string, unknown> | Reply;

/**
 * The app-independent part of a route: method, path and the schemas of its input.
 * Each app (kitting, studio, agents) adds its own auth column and handler context on top.
 */
export interface RouteShape {
  method: Method;
  path: string;
  params?: z.ZodType<unknown>;
  query?: z.ZodType<unknown>;
  body?: z.ZodType<unknown>;
  /** Schema of the success body as sent (the app's envelope included); checked in tests, exported as OpenAPI. */
  response?: z.ZodType<unknown>;
  /**
   * Content type(s) of a route that answers with a Reply (CSV, PDF, HTML) instead of the JSON envelope;
   * 'redirect' for a route that answers 302.
   */
  produces?: string | readonly string[];
}

/** Called with each success body of a route that declares a response schema (installed by the test setup). */
export type ResponseCheck = (route: RouteShape, body: unknown) => void;
let responseCheck: ResponseCheck | null = null;

/** Install (or remove, with null) the check of every success body against its route's response schema. */
export function checkResponses(check: ResponseCheck | null): void {
  responseCheck = check;
}

/** Hand a body as the client reads it to the installed check (tests), with the schema it was published under. */
export function reportResponse(route: RouteShape, body: unknown): void {
  if (responseCheck && route.response) responseCheck(route, JSON.parse(JSON.stringify(body)) as unknown);
}

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** How an app runs one of its routes once mounted. */
export interface RoutePipeline<R extends RouteShape> {
  /** Runs before the input is read (authentication, authorization). */
  guard?: (route: R, req: Request, res: Response) => Promise<void> | void;
  /** Runs with the validated input; its result is sent in the success envelope. */
  run: (route: R, input: ParsedInput, req: Request, res: Response) => Promise<RouteResult> | RouteResult;
  /** The app's own validation error (default: 400 `invalid request` with message and issues). */
  invalid?: (err: z.ZodError, value: unknown) => DomainError;
  /** The app's own success body (default: the envelope `{ok:true, ...result}`). */
  envelope?: (result: Record<string, unknown>) => Record<string, unknown>;
}

const okEnvelope = (result: Record<string, unknown>): Record<string, unknown> => ({ ok: true, ...result });

/** The body a Reply carries when it is JSON (e.g. a bare document outside the envelope), else undefined. */
function replyJson(reply: Reply): unknown {
  const type = Object.entries(reply.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  if (!type.includes('json')) return undefined;
  try {
    return JSON.parse(String(reply.body));
  } catch {
    return undefined;
  }
}

/** Refuse a second definition of the same method and path (checked at start). */
export function assertUniqueRoutes(routes: readonly RouteShape[]): void {
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method.toUpperCase()} ${r.path}`;
    if (seen.has(key)) throw new Error(`duplicate route: ${key}`);
    seen.add(key);
  }
}

export function validationError(err: z.ZodError): DomainError {
  const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid request';
  return badRequest('invalid request', { message, issues });
}

function parseInput<T>(schema: z.ZodType<T> | undefined, value: unknown, invalid: (err: z.ZodError, value: unknown) => DomainError = validationError): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw invalid(r.error, value);
}

function send(res: Response, result: RouteResult, envelope = okEnvelope): void {
  if (result instanceof Reply) {
    res.status(result.status);
    for (const [k, v] of Object.entries(result.headers)) res.setHeader(k, v);
    res.send(result.body);
    return;
  }
  const body = JSON.stringify(envelope(result));
  if (res.req.method === 'GET' || res.req.method === 'HEAD') {
    // Reads keep express's send: an ETag and a 304 for a fresh cache, no body for HEAD.
    res.status(200).type('json').send(body);
    return;
  }
  // A write's answer is never cached: no ETag to hash, straight to the socket.
  res.statusCode = 200;
  if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** Hand a success body to the installed check (tests): the JSON the client reads, not the handler's object. */
function checkResponse(route: RouteShape, result: RouteResult, envelope: (r: Record<string, unknown>) => Record<string, unknown>): void {
  if (!responseCheck || !route.response) return;
  if (result instanceof Reply) {
    if (result.status >= 300) return;
    const body = replyJson(result);
    if (body !== undefined) responseCheck(route, body);
    return;
  }
  responseCheck(route, JSON.parse(JSON.stringify(envelope(result))) as unknown);
}

/** Mount every route explicitly on the router, in list order: guard, parse, run, send. */
export function mountRouteList<R extends RouteShape>(router: Router, routes: readonly R[], pipeline: RoutePipeline<R>): void {
  assertUniqueRoutes(routes);
  for (const route of routes) {
    router[route.method](route.path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        if (pipeline.guard) await pipeline.guard(route, req, res);
        const input: ParsedInput = {
          params: parseInput(route.params, req.params, pipeline.invalid),
          query: parseInput(route.query, req.query, pipeline.invalid),
          body: parseInput(route.body, req.body ?? {}, pipeline.invalid),
        };
        const result = await pipeline.run(route, input, req, res);
        if (res.headersSent || res.writableEnded) return;
        const envelope = pipeline.envelope ?? okEnvelope;
        checkResponse(route, result, envelope);
        send(res, result, envelope);
      } catch (err) {
        next(err);
      }
    });
  }
}
