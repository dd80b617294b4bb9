import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { ensureWorkspace } from '../store/seed';
import { bearerSession, markCaller, sessionPrincipalOf } from '../security/auth';
import { registerWorkspace } from '../security/tenants';
import type { Actor } from '../security/policy';
import { clearedCookie, cookieSessionActor, cookieIdentity, isOwnedWorkspace, setCookie, tidCookie } from '../security/sessions';
import { unauthorized } from '../../core/errors';
import { hitLimit } from '../security/limits';

export { tidCookie } from '../security/sessions';

const cached = Symbol('caller');
type WithCaller = Request & { [cached]?: Caller };
export interface Caller {
  ws: string;
  actor: Actor;
}

export interface ResolveOptions {
  /** Make a new anonymous workspace when the request names none (browser routes). */
  create: boolean;
  /** Ended credentials are ignored (public routes) instead of answered with 401. */
  lenient: boolean;
}

/**
 * Workspaces seen to exist, per app: a workspace is never deleted, so once found it need not be
 * looked up again on every request of its cookie (bounded; emptied when full).
 */
const KNOWN_MAX = 10_000;
const knownWorkspaces = new WeakMap<AppContext, Set<string>>();

async function workspaceExists(app: AppContext, ws: string): Promise<boolean> {
  let known = knownWorkspaces.get(app);
  if (!known) knownWorkspaces.set(app, (known = new Set()));
  if (known.has(ws)) return true;
  if (!(await app.store.workspace(ws))) return false;
  if (known.size >= KNOWN_MAX) known.clear();
  known.add(ws);
  return true;
}

const ended = () => unauthorized('session_ended', { message: 'セッションが終了しました。もう一度ログインしてください' });

async function newAnonymous(app: AppContext, req: Request, res: Response): Promise<Caller> {
  await hitLimit(app, 'newWorkspace', req.ip);
  const ws = `w-${randomBytes(8).toString('hex')}`;
  await ensureWorkspace(app.store, ws, 'anonymous', app.seeds);
  await registerWorkspace(app, ws, 'anonymous');
  setCookie(res, tidCookie(app, ws));
  return { ws, actor: { kind: 'anonymous', ws } };
}

/**
 * Who calls and in which workspace. Bench mode: the bench's operator in the bench workspace.
 * Central: a Bearer account session, else the kit_tid cookie (an account session, or an anonymous
 * workspace nobody owns yet), else a new anonymous workspace. Ended sessions answer 401 and clear
 * the cookie (the next request starts afresh), unless the route is public.
 */
export async function resolveCaller(app: AppContext, req: Request, res: Response, opts: ResolveOptions): Promise<Caller> {
  const r = req as WithCaller;
  if (r[cached]) return r[cached];
  const done = (c: Caller, assistBy: string | null = null): Caller => {
    markCaller(req, c.actor, sessionPrincipalOf(c.actor, assistBy));
    return (r[cached] = c);
  };
  if (app.mode === 'bench' && app.benchWorkspace) return done({ ws: app.benchWorkspace, actor: { kind: 'local' } });
  const bearer = await bearerSession(app, req);
  if (bearer.state === 'ok') return done({ ws: bearer.actor.ws, actor: bearer.actor }, bearer.assistBy);
  if (bearer.state === 'ended' && !opts.lenient) throw ended();
  const id = cookieIdentity(app, req);
  if (id?.kind === 'session') {
    const actor = await cookieSessionActor(app, id.sid, id.v);
    if (actor && actor.kind === 'member') return done({ ws: actor.ws, actor });
    setCookie(res, clearedCookie(app));
    if (!opts.lenient) throw ended();
  } else if (id?.kind === 'anonymous') {
    if (await workspaceExists(app, id.ws)) {
      if (!(await isOwnedWorkspace(app, id.ws))) return done({ ws: id.ws, actor: { kind: 'anonymous', ws: id.ws } });
      setCookie(res, clearedCookie(app));
      if (!opts.lenient) throw ended();
    }
  }
  if (!opts.create) return done({ ws: '', actor: { kind: 'none' } });
  return done(await newAnonymous(app, req, res));
}

/** The caller's workspace on a browser route (creating an anonymous one when none is named). */
export async function resolveWorkspace(app: AppContext, req: Request, res: Response): Promise<string> {
  return (await resolveCaller(app, req, res, { create: true, lenient: true })).ws;
}

/** The anonymous workspace a kit_tid cookie names (legacy portal links outside production). */
export function workspaceFromCookie(app: AppContext, req: Request): string | null {
  const id = cookieIdentity(app, req);
  return id?.kind === 'anonymous' ? id.ws : null;
}
