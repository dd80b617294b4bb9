import type { NextFunction, Request, Response } from 'express';

/**
 * The policy of every page the app serves (the UI, admin and portal pages, bench and central): scripts
 * from the app's own origin only (no inline or injected script), styles from itself (inline style
 * attributes allowed: React renders them), images also as data: and blob: URLs (logos, previews), no
 * plugins, never inside a frame of another site.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Security headers on every response (a route that serves another kind of page, a published site,
 * sets its own policy over these): CSP, no framing (clickjacking would pass a bench's same-origin
 * guard), no MIME sniffing, and no Referer (a portal token in `?t=` never leaks to another site).
 */
export function pageHeaders() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  };
}
