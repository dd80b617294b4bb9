import type { NextFunction, Request, Response, Router } from 'express';
import type { z } from 'zod';
import { HttpError } from './errors';
import { Reply, type Method } from './define-route';

/**
 * Route definition for the services beside the kitting server (their own auth and envelope):
 * the same shape as `defineRoute`, with the caller resolved by the service's `authorize` hook.
 */
export interface ServiceRouteContext<C, P, Q, B> {
  caller: C;
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
}

export type ServiceResult = Record<string, unknown> | Reply | undefined;

export interface ServiceRoute<A extends string, C, P = unknown, Q = unknown, B = unknown> {
  method: Method | 'patch';
  path: string;
  auth: A;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Runs after authorization and before validation (rate limits, size checks). */
  before?: (req: Request, caller: C) => void | Promise<void>;
  handler: (ctx: ServiceRouteContext<C, P, Q, B>) => Promise<ServiceResult> | ServiceResult;
}

export interface ServiceMountOptions<A extends string, C> {
  authorize: (req: Request, res: Response, auth: A) => Promise<C> | C;
  /** Turns a validation failure into the service's typed error. */
  invalid: (issues: z.core.$ZodIssue[]) => HttpError;
  /** Writes a successful result (the kitting API wraps it in `{ok:true}`; other services may not). */
  send?: (res: Response, result: Record<string, unknown>) => void;
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, invalid: (issues: z.core.$ZodIssue[]) => HttpError): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  throw invalid(r.error.issues);
}

/** Refuse a second definition of the same method and path, then mount every route in list order. */
export function mountServiceRoutes<A extends string, C>(
  router: Router,
  routes: ServiceRoute<A, C>[],
  opts: ServiceMountOptions<A, C>,
): void {
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method.toUpperCase()} ${r.path}`;
    if (seen.has(key)) throw new Error(`duplicate route: ${key}`);
    seen.add(key);
  }
  const send = opts.send ?? ((res: Response, result: Record<string, unknown>) => void res.status(200).json(result));
  for (const route of routes) {
    router[route.method](route.path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const caller = await opts.authorize(req, res, route.auth);
        if (route.before) await route.before(req, caller);
        const params = parse(route.params, req.params, opts.invalid);
        const query = parse(route.query, req.query, opts.invalid);
        const body = parse(route.body, req.body ?? {}, opts.invalid);
        const result = await route.handler({ caller, params, query, body, req, res });
        if (res.headersSent || res.writableEnded) return;
        if (result instanceof Reply) {
          res.status(result.status);
          for (const [k, v] of Object.entries(result.headers)) res.setHeader(k, v);
          res.send(result.body);
          return;
        }
        send(res, result ?? { ok: true });
      } catch (err) {
        next(err);
      }
    });
  }
}
