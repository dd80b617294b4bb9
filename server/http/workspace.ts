import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { sign, verify } from '../security/signing';
import { ensureWorkspace } from '../store/seed';
import { seedSpecs } from '../modules/seeds';
import { workspaceFromBearer } from '../security/auth';
import { isReservedWorkspace, registerWorkspace } from '../security/platform';

export const TID_COOKIE = 'kit_tid';
const TID_KIND = 'kit_tid';

export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function tidCookie(app: AppContext, ws: string): string {
  const secure = app.config.production ? '; Secure' : '';
  const value = encodeURIComponent(sign(app.secret, TID_KIND, ws));
  return `${TID_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000${secure}`;
}

/** The workspace named by a validly signed kit_tid cookie; a tampered cookie is ignored. */
export function workspaceFromCookie(app: AppContext, req: Request): string | null {
  const raw = readCookie(req, TID_COOKIE);
  const ws = raw ? verify(app.secret, TID_KIND, raw) : null;
  return ws && !isReservedWorkspace(ws) ? ws : null;
}

const cached = Symbol('workspace');
type WithWs = Request & { [cached]?: string };

/**
 * Bench mode: always the bench's own workspace. Central mode: the signed kit_tid
 * cookie, else a new anonymous workspace (seeded, capped per IP) whose cookie is set.
 */
export async function resolveWorkspace(app: AppContext, req: Request, res: Response): Promise<string> {
  const r = req as WithWs;
  if (r[cached]) return r[cached];
  if (app.mode === 'bench' && app.benchWorkspace) return (r[cached] = app.benchWorkspace);
  const fromBearer = await workspaceFromBearer(app, req);
  if (fromBearer && (await app.store.workspace(fromBearer))) return (r[cached] = fromBearer);
  const fromCookie = workspaceFromCookie(app, req);
  if (fromCookie && (await app.store.workspace(fromCookie))) return (r[cached] = fromCookie);
  app.limits.newWorkspace.hit(req.ip ?? 'unknown', 'too many new workspaces from this address');
  const ws = `w-${randomBytes(8).toString('hex')}`;
  await ensureWorkspace(app.store, ws, 'anonymous', seedSpecs);
  await registerWorkspace(app, ws, 'anonymous');
  res.append('Set-Cookie', tidCookie(app, ws));
  return (r[cached] = ws);
}
