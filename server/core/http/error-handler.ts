import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { DomainError } from '../errors';
import { fromDomainError, HttpError } from './errors';
import { reportResponse, validationError } from './route-core';

interface BodyParserError {
  type?: string;
  status?: number;
}

function toHttpError(err: unknown): HttpError | null {
  if (err instanceof DomainError) return fromDomainError(err);
  if (err instanceof HttpError) return err;
  if (err instanceof z.ZodError) return fromDomainError(validationError(err));
  const e = err as BodyParserError;
  if (e && typeof e === 'object') {
    if (e.type === 'entity.parse.failed') return new HttpError(400, 'malformed JSON', { message: 'リクエスト本文が正しいJSONではありません' });
    if (e.type === 'entity.too.large') return new HttpError(413, 'payload too large', { message: 'リクエスト本文が大きすぎます' });
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new HttpError(e.status, e.type ?? 'bad request');
  }
  return null;
}

/** How a service writes a failure body; the kitting API's envelope is `{ok:false, error, ...extra}`. */
export type ErrorEnvelope = (err: HttpError) => Record<string, unknown>;

const kittingEnvelope: ErrorEnvelope = (e) => ({ ok: false, error: e.error, ...e.extra });

/**
 * The one error path: every failure becomes the service's error body with its status. `errorBody` is the
 * failure schema the service publishes (its OpenAPI `default` response); in tests every failure body sent
 * is checked against it like success bodies against their routes' schemas.
 */
export function errorHandler(log: (line: string) => void, envelope: ErrorEnvelope = kittingEnvelope, errorBody?: z.ZodType<unknown>) {
  const answer = (req: Request, res: Response, http: HttpError): void => {
    const body = envelope(http);
    if (errorBody) reportResponse({ method: req.method.toLowerCase() as never, path: (req.route as { path?: string } | undefined)?.path ?? req.path, response: errorBody }, body);
    res.status(http.status).json(body);
  };
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const http = toHttpError(err);
    if (res.headersSent) return;
    if (http) {
      for (const [k, v] of Object.entries(http.headers)) res.setHeader(k, v);
      answer(req, res, http);
      return;
    }
    log(`error ${req.method} ${req.originalUrl.split("?")[0]}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    answer(req, res, new HttpError(500, 'internal error'));
  };
}
