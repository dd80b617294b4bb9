import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { bearerToken } from '../../security/auth';
import type { SiteConfig } from '../../security/site-config';
import { clearedCookie, cookieIdentity, setCookie } from '../../security/sessions';
import type { Doc } from '../../store/types';
import { endNamedSessions, startSession } from './accounts.service';

/** Sign the account in on this response: the session cookie is set here, the Bearer token answered. */
export async function openSession(app: AppContext, res: Response, acct: Doc, cfg: SiteConfig): Promise<string> {
  const s = await startSession(app, acct, cfg);
  setCookie(res, s.cookie);
  return s.token;
}

/** End the session this request names (Bearer token or cookie) and clear the cookie. */
export async function closeSession(app: AppContext, req: Request, res: Response): Promise<void> {
  const c = cookieIdentity(app, req);
  await endNamedSessions(app, bearerToken(req), c?.kind === 'session' ? c.sid : null);
  setCookie(res, clearedCookie(app));
}
