import type { NextFunction, Request, Response } from 'express';
import { forbidden } from '../errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `host[:port]` of an Origin header, lower-case, or '' when it is not a URL (`null`, garbage). */
function originHost(origin: string): string {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return '';
  }
}

export interface SameOriginOptions {
  /** Refuse a request that carries neither Origin nor Sec-Fetch-Site (cookie-authenticated writes need one of them). */
  requireMarker: boolean;
  /** Origins trusted besides the request's own Host (the UI's configured address). */
  trustedOrigins?: readonly string[];
}

/**
 * Whether a browser says this request comes from the server's own site: `Sec-Fetch-Site` is
 * `same-origin` or `none` (typed address, bookmark), and an `Origin` header names the request's own Host
 * (or a trusted origin). Shared by the bench guard and the services' cross-site write guard.
 */
export function fromSameOrigin(req: Request, opts: SameOriginOptions): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== '') {
    const host = originHost(origin);
    const own = String(req.headers.host ?? '').toLowerCase();
    const trusted = (opts.trustedOrigins ?? []).map(originHost).filter(Boolean);
    return host !== '' && (host === own || trusted.includes(host));
  }
  return !opts.requireMarker || site === 'same-origin' || site === 'none';
}

export interface CrossSiteGuardOptions {
  /** Cookies that authenticate a request; `any` treats every Cookie header as one (a service without cookie sessions). */
  sessionCookies: readonly string[] | 'any';
  trustedOrigins?: readonly string[];
  message?: string;
}

function cookieNames(req: Request): string[] {
  const header = req.headers.cookie;
  if (!header) return [];
  return header.split(';').map((p) => p.split('=')[0].trim()).filter(Boolean);
}

/**
 * Cross-site request forgery guard of the services: a state-changing request (POST, PUT, PATCH, DELETE)
 * authenticated by a session cookie must come from the same origin (Origin header, or Sec-Fetch-Site
 * `same-origin`/`none`); otherwise 403 and the handler never runs. Requests authenticated by an
 * Authorization header (Bearer token, API key) carry no ambient credential and pass unchanged.
 */
export function crossSiteGuard(opts: CrossSiteGuardOptions) {
  const names = opts.sessionCookies === 'any' ? null : new Set(opts.sessionCookies);
  const message = opts.message ?? 'Requests from another site are refused.';
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (SAFE.has(req.method)) return next();
    const auth = req.headers.authorization;
    if (typeof auth === 'string' && auth.trim() !== '') return next();
    const cookies = cookieNames(req);
    const cookieAuth = names === null ? cookies.length > 0 : cookies.some((c) => names.has(c));
    if (!cookieAuth) return next();
    if (!fromSameOrigin(req, { requireMarker: true, trustedOrigins: opts.trustedOrigins })) return next(forbidden('cross-site request refused', { message }));
    next();
  };
}
