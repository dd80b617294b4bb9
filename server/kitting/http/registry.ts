import type { Request, Router } from 'express';
import type { AppContext } from '../context';
import type { RouteDef } from './define-route';
import { mountRouteList } from '../../core/http/route-core';
import { authorizeRoute } from './authorize';
import { ACCESS_VALUES } from '../security/policy';
import { assertDeclaredAccess as assertDeclared } from '../../core/http/route-access';

export { assertUniqueRoutes } from '../../core/http/route-core';

/** Refuse at start a route whose `auth` names no entry of the access table. */
function assertDeclaredAccess(routes: readonly RouteDef[]): void {
  assertDeclared(routes, ACCESS_VALUES);
}

const WS = Symbol('workspace');
type WithWs = Request & { [WS]?: string };

/** Mount every route explicitly on the router, in list order; the authorization layer runs first. */
export function mountRoutes(router: Router, routes: RouteDef[], app: AppContext): void {
  assertDeclaredAccess(routes);
  mountRouteList(router, routes, {
    guard: async (route, req, res) => {
      (req as WithWs)[WS] = await authorizeRoute(app, req, res, route);
    },
    run: async (route, input, req, res) => {
      const ws = (req as WithWs)[WS] ?? '';
      return route.handler({ ws, params: input.params, query: input.query, body: input.body, req, res, app });
    },
  });
}
