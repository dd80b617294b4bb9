/** Typed errors: handlers throw these, one error handler writes `{ok:false, error, ...extra}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(error);
  }
}

export const badRequest = (error: string, extra?: Record<string, unknown>) => new HttpError(400, error, extra);
export const unauthorized = (error = 'unauthorized', extra?: Record<string, unknown>) => new HttpError(401, error, extra);
export const forbidden = (error = 'forbidden', extra?: Record<string, unknown>) => new HttpError(403, error, extra);
export const notFound = (error = 'not_found', extra?: Record<string, unknown>) => new HttpError(404, error, extra);
export const conflict = (error: string, extra?: Record<string, unknown>) => new HttpError(409, error, extra);
export const unprocessable = (error: string, extra?: Record<string, unknown>) => new HttpError(422, error, extra);
export const tooMany = (retryAfterSec: number, error = 'too many requests') =>
  new HttpError(429, error, {}, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSec))) });
export const unavailable = (error: string, extra?: Record<string, unknown>) => new HttpError(503, error, extra);
