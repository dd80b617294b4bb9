import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { authorizeOperator, denied, markCaller } from '../security/auth';
import { allows, isWorkspaceAccess, type Actor } from '../security/policy';
import type { RouteDef } from './define-route';
import { notFound } from '../errors';
import { resolveCaller } from './workspace';

/**
 * The authorization layer: runs before a route reads its input, from the route's `auth`
 * (server/core/security/policy.ts). Answers the workspace the handler works in ('' for none).
 */
export async function authorizeRoute(app: AppContext, req: Request, res: Response, route: RouteDef): Promise<string> {
  const access = route.auth;
  const wantsWorkspace = route.workspace !== false;
  switch (access) {
    case 'admin':
    case 'subadmin':
    case 'subadmin:canDelete':
      await authorizeOperator(app, req, access, (a) => allows(access, a));
      return '';
    case 'bench': {
      const bench = app.authenticateBench ? await app.authenticateBench(req) : null;
      if (!bench) throw notFound('not_found');
      const actor: Actor = { kind: 'bench', ...bench };
      markCaller(req, actor, null);
      return '';
    }
    case 'local':
      if (app.mode !== 'bench') throw notFound('not_found', { message: 'この操作は作業台(ベンチ)でのみ使えます' });
      markCaller(req, { kind: 'local' }, null);
      return wantsWorkspace ? (app.benchWorkspace ?? '') : '';
    case 'public':
    case 'token':
      if (!wantsWorkspace) return '';
      return (await resolveCaller(app, req, res, { create: true, lenient: true })).ws;
    default:
      break;
  }
  if (!isWorkspaceAccess(access)) throw new Error(`route ${route.method} ${route.path}: unknown auth ${String(access)}`);
  const caller = await resolveCaller(app, req, res, { create: wantsWorkspace && !access.startsWith('account'), lenient: false });
  if (!allows(access, caller.actor)) throw denied(access, caller.actor);
  return wantsWorkspace ? caller.ws : '';
}
