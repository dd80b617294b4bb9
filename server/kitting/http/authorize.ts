import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { authorizeOperator, denied, markCaller, principalOf } from '../security/auth';
import { allows, isWorkspaceAccess, type Actor } from '../security/policy';
import type { RouteDef } from './define-route';
import { forbidden, notFound } from '../../core/errors';
import { resolveCaller } from './workspace';

/**
 * An operator acting in a workspace (assist mode) mints no credential, and every write of theirs is
 * recorded in the workspace's audit log as the operator before it runs.
 */
async function boundAssist(app: AppContext, req: Request, route: RouteDef, ws: string): Promise<void> {
  if (route.credential) throw forbidden('assist_forbidden', { message: 'サポート(代理操作)中は登録コード・招待・APIキーを発行できません' });
  if (route.method === 'get') return;
  const p = principalOf(req);
  const by = p.kind === 'session' && p.assist ? p.assist.by : 'assist';
  await app.auditAssist?.(ws, by, `${route.method.toUpperCase()} ${route.path}`);
}

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
  if (caller.actor.kind === 'member' && caller.actor.assist) await boundAssist(app, req, route, caller.actor.ws);
  return wantsWorkspace ? caller.ws : '';
}
