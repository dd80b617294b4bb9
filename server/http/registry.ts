import type { Router } from 'express';
import type { AppContext } from '../context';
import type { RouteDef } from './define-route';
import { mountRouteList } from './route-core';
import { resolveWorkspace } from './workspace';
import { authorize } from '../security/auth';

export { assertUniqueRoutes, send, validationError } from './route-core';

/** Mount every route explicitly on the router, in list order. */
export function mountRoutes(router: Router, routes: RouteDef[], app: AppContext): void {
  mountRouteList(router, routes, {
    guard: (route, req) => authorize(app, req, route.auth),
    run: async (route, input, req, res) => {
      const ws = route.workspace === false ? '' : await resolveWorkspace(app, req, res);
      return route.handler({ ws, params: input.params, query: input.query, body: input.body, req, res, app });
    },
  });
}
