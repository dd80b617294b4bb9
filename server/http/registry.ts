import type { NextFunction, Request, Response, Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { HttpError } from './errors';
import { Reply, type RouteDef } from './define-route';
import { authorizeRoute } from './authorize';
import { ACCESS_VALUES } from '../security/policy';
import { enforcePlanLimits } from '../modules/admin/plans';

/** Refuse a second definition of the same method and path (checked at start). */
export function assertUniqueRoutes(routes: RouteDef[]): void {
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method.toUpperCase()} ${r.path}`;
    if (!ACCESS_VALUES.includes(r.auth)) throw new Error(`route without a valid auth declaration: ${key}`);
    if (seen.has(key)) throw new Error(`duplicate route: ${key}`);
    seen.add(key);
  }
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw validationError(r.error);
}

export function validationError(err: z.ZodError): HttpError {
  const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid request';
  return new HttpError(400, 'invalid request', { message, issues });
}

export function send(res: Response, result: Record<string, unknown> | Reply): void {
  if (result instanceof Reply) {
    res.status(result.status);
    for (const [k, v] of Object.entries(result.headers)) res.setHeader(k, v);
    res.send(result.body);
    return;
  }
  res.status(200).json({ ok: true, ...result });
}

/** Mount every route explicitly on the router, in list order. */
export function mountRoutes(router: Router, routes: RouteDef[], app: AppContext): void {
  assertUniqueRoutes(routes);
  for (const route of routes) {
    router[route.method](route.path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const ws = await authorizeRoute(app, req, res, route);
        const params = parse(route.params, req.params);
        const query = parse(route.query, req.query);
        const body = parse(route.body, req.body ?? {});
        await enforcePlanLimits(app, route, ws, body);
        const result = await route.handler({ ws, params, query, body, req, res, app });
        if (!res.headersSent) send(res, result);
      } catch (err) {
        next(err);
      }
    });
  }
}
