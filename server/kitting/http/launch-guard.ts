import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Header the desktop shell injects into every request of its own window. */
const LAUNCH_SECRET_HEADER = 'x-station-secret';

export interface LaunchGuardOptions {
  /** Per-launch secret; every request must carry it in the x-station-secret header. */
  secret: string;
  /** Port the server listens on; defaults to the port the request arrived on. */
  port?: number;
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Constant-time comparison that also hides the secret's length. */
function sameSecret(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

/**
 * The embedded bench server is reachable from every program on the machine, including web
 * pages in the user's browser (DNS rebinding, form posts). Only the desktop window knows the
 * per-launch secret, and only a Host of 127.0.0.1:<port> or localhost:<port> is accepted.
 */
export function launchGuard(opts: LaunchGuardOptions) {
  if (!opts.secret) throw new Error('launchGuard needs a non-empty secret');
  const expected = digest(opts.secret);
  return (req: Request, res: Response, next: NextFunction): void => {
    const port = opts.port ?? req.socket.localPort;
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      res.status(403).json({ ok: false, error: 'host_not_allowed', message: 'このアドレスからの接続は許可されていません' });
      return;
    }
    const given = req.headers[LAUNCH_SECRET_HEADER];
    if (typeof given !== 'string' || !sameSecret(given, expected)) {
      res.status(403).json({ ok: false, error: 'launch_secret_required', message: 'この端末のアプリ以外からは操作できません' });
      return;
    }
    next();
  };
}
