import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../context';
import type { Access } from '../security/policy';
import type { Method, RouteResult } from '../../core/http/route-core';

export { Reply, type Method, type RouteResult } from '../../core/http/route-core';

/** Who may call the route: one entry of the table in server/core/security/policy.ts. */
export type Auth = Access;

export interface RouteContext<P, Q, B> {
  /** The caller's workspace (tenant); every store call is scoped by it. */
  ws: string;
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  app: AppContext;
}

export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: Method;
  path: string;
  auth: Auth;
  /** False for routes that need no workspace (ping, health, platform routes). */
  workspace?: boolean;
  /**
   * The route mints a credential (enrolment code, invitation, API key): an assist session (an operator
   * acting in the workspace) is refused with 403 assist_forbidden.
   */
  credential?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Schema of the success body (`{ok:true, ...}`), from the route's contract in shared/api/contracts. */
  response?: z.ZodType<unknown>;
  /** Content type(s) of a route answering with a Reply (CSV, PDF, HTML) instead of the JSON envelope; 'redirect' for a 302. */
  produces?: string | readonly string[];
  handler: (ctx: RouteContext<P, Q, B>) => Promise<RouteResult> | RouteResult;
}

/** The one way to define a route: types of params, query and body flow from their schemas. */
export function defineRoute<P = Record<string, string>, Q = Record<string, unknown>, B = unknown>(
  def: RouteDef<P, Q, B>,
): RouteDef {
  return def as unknown as RouteDef;
}
