import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { HttpError } from './errors';
import { validationError } from './route-core';

interface BodyParserError {
  type?: string;
  status?: number;
}

function toHttpError(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  if (err instanceof z.ZodError) return validationError(err);
  const e = err as BodyParserError;
  if (e && typeof e === 'object') {
    if (e.type === 'entity.parse.failed') return new HttpError(400, 'malformed JSON', { message: 'リクエスト本文が正しいJSONではありません' });
    if (e.type === 'entity.too.large') return new HttpError(413, 'payload too large', { message: 'リクエスト本文が大きすぎます' });
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new HttpError(e.status, e.type ?? 'bad request');
  }
  return null;
}

/** The one error path: every failure becomes `{ok:false, error, ...}` with its status. */
export function errorHandler(log: (line: string) => void) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const http = toHttpError(err);
    if (res.headersSent) return;
    if (http) {
      for (const [k, v] of Object.entries(http.headers)) res.setHeader(k, v);
      res.status(http.status).json({ ok: false, error: http.error, ...http.extra });
      return;
    }
    log(`error ${req.method} ${req.originalUrl.split("?")[0]}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    res.status(500).json({ ok: false, error: 'internal error' });
  };
}
