import type { NextFunction, Request, Response } from 'express';
import { fromSameOrigin } from '../../core/http/cross-site';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The host name of a Host header or Origin URL, lower-case, without the port. */
function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon >= 0 ? h.slice(0, colon) : h;
}

const refuse = (res: Response, status: number, error: string, message: string) => {
  res.status(status).json({ ok: false, error, message });
};

/**
 * The headless bench (`npm start` in bench mode) listens on loopback, where every web page the user
 * opens can reach it. It answers only Host names that are loopback (or configured), and refuses a
 * state-changing request that a browser marks as coming from another site (Origin, Sec-Fetch-Site)
 * or that carries a content type other than JSON (what a plain HTML form sends).
 */
export function benchGuard(allowedHosts: string[] = []) {
  const allowed = new Set([...LOOPBACK, ...allowedHosts.map((h) => h.toLowerCase())]);
  return (req: Request, res: Response, next: NextFunction): void => {
    const host = hostName(req.headers.host ?? '');
    if (!allowed.has(host)) {
      refuse(res, 403, 'host_not_allowed', 'このアドレスからの接続は許可されていません');
      return;
    }
    if (SAFE.has(req.method)) {
      next();
      return;
    }
    if (!fromSameOrigin(req, { requireMarker: false })) {
      refuse(res, 403, 'cross_site_request', '他のサイトからの操作は受け付けません');
      return;
    }
    const type = req.headers['content-type'];
    if (type !== undefined && !req.is('application/json')) {
      refuse(res, 415, 'unsupported media type', 'リクエスト本文は JSON (Content-Type: application/json) で送信してください');
      return;
    }
    next();
  };
}
