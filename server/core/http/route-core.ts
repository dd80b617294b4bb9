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
  /** The app's own success envelope (default: `{ok:true, ...result}`). */
  send?: (res: Response, result: Record<string, unknown>) => void;
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

export function parseInput<T>(schema: z.ZodType<T> | undefined, value: unknown, invalid: (err: z.ZodError, value: unknown) => DomainError = validationError): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw invalid(r.error, value);
}

export function send(res: Response, result: RouteResult): void {
  if (result instanceof Reply) {
    res.status(result.status);
    for (const [k, v] of Object.entries(result.headers)) res.setHeader(k, v);
    res.send(result.body);
    return;
  }
  res.status(200).json({ ok: true, ...result });
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
        if (pipeline.send && !(result instanceof Reply)) pipeline.send(res, result);
        else send(res, result);
      } catch (err) {
        next(err);
      }
    });
  }
}
