import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { Method, RouteResult } from '../core/http/route-core';
import { mountRouteList } from '../core/http/route-core';
import { assertDeclaredAccess } from '../core/http/route-access';
import { forbidden } from '../core/errors';
import type { Caller, StudioContext } from './context';
import { checkSecretHeader, resolveCaller } from './auth';

/**
 * Auth column of the studio's contract: PUBLIC (the body or path is the credential), AUTH any
 * session, WRITE owner or editor, OWNER owner only, OWNER_PERSON owner and not an API key
 * (billing, keys), ADMIN header x-admin-secret, CRON header x-cron-secret.
 */
export const STUDIO_ACCESS = ['PUBLIC', 'AUTH', 'WRITE', 'OWNER', 'OWNER_PERSON', 'ADMIN', 'CRON'] as const;
export type StudioAuth = (typeof STUDIO_ACCESS)[number];

export interface StudioRouteContext<P, Q, B> {
  caller: Caller;
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  app: StudioContext;
}

export interface StudioRoute<P = unknown, Q = unknown, B = unknown> {
  method: Method;
  path: string;
  auth: StudioAuth;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Schema of the success body (`{ok:true, ...}`), from shared/api/contracts/studio.ts. */
  response?: z.ZodType<unknown>;
  /** Content type(s) of a route answering with a Reply instead of the JSON envelope. */
  produces?: string | readonly string[];
  handler: (ctx: StudioRouteContext<P, Q, B>) => Promise<RouteResult> | RouteResult;
}

/** The studio's one way to define a route: types of params, query and body flow from their schemas. */
export function studioRoute<P = Record<string, string>, Q = Record<string, unknown>, B = unknown>(def: StudioRoute<P, Q, B>): StudioRoute {
  return def as unknown as StudioRoute;
}

/** Placeholder caller of PUBLIC, ADMIN and CRON routes (they name no workspace). */
const NOBODY: Caller = { ws: 0, uid: null, email: null, role: 'viewer', actor: 'system', apiKeyId: null };

export const READ_ONLY = () => forbidden('read-only role', { message: 'This role can view the workspace but not change it.' });
const OWNER_ONLY = () => forbidden('owner only', { message: 'Only the workspace owner can do this.' });

/**
 * Does a resolved caller (a session or an API key, which acts as editor) satisfy this access? The one rule the
 * layer and the role × route test both use. PUBLIC, ADMIN and CRON name no caller: the route's credential
 * is the path, the body or a secret header.
 */
export function allows(auth: StudioAuth, caller: Pick<Caller, 'role' | 'apiKeyId'>): boolean {
  switch (auth) {
    case 'PUBLIC':
    case 'AUTH':
      return true;
    case 'WRITE':
      return caller.role === 'owner' || caller.role === 'editor';
    case 'OWNER':
      return caller.role === 'owner';
    case 'OWNER_PERSON':
      return caller.role === 'owner' && !caller.apiKeyId;
    case 'ADMIN':
    case 'CRON':
      return false;
  }
}

/** Role rules of section 5 on top of a resolved caller. */
function checkRole(caller: Caller, auth: StudioAuth): void {
  if (allows(auth, caller)) return;
  if (auth === 'WRITE') throw READ_ONLY();
  if (caller.role !== 'owner') throw OWNER_ONLY();
  throw forbidden('not allowed with an api key', { message: 'API keys cannot change billing, seats or keys.' });
}

const CALLER = Symbol('caller');
type WithCaller = Request & { [CALLER]?: Caller };

export function mountStudioRoutes(router: Router, routes: StudioRoute[], app: StudioContext): void {
  assertDeclaredAccess(routes, STUDIO_ACCESS);
  mountRouteList(router, routes, {
    guard: async (route, req) => {
      if (route.auth === 'PUBLIC') return;
      if (route.auth === 'ADMIN') return checkSecretHeader(req, 'x-admin-secret', app.config.adminSecret);
      if (route.auth === 'CRON') return checkSecretHeader(req, 'x-cron-secret', app.config.cronSecret);
      const caller = await resolveCaller(app, req);
      checkRole(caller, route.auth);
      (req as WithCaller)[CALLER] = caller;
    },
    run: (route, input, req, res) =>
      route.handler({ caller: (req as WithCaller)[CALLER] ?? NOBODY, params: input.params, query: input.query, body: input.body, req, res, app }),
  });
}
