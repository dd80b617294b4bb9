/**
 * Domain errors: services, the store and security code throw these. This module imports nothing and knows no
 * transport; the HTTP layer (server/core/http/errors.ts) maps each kind to a status and one error handler writes
 * the service's failure body from `error` and `extra`.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'unsupported_media'
  | 'unprocessable'
  | 'too_many'
  | 'internal'
  | 'upstream'
  | 'unavailable'
  | 'not_implemented';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    /** The machine-readable reason, the `error` field of the failure body. */
    readonly error: string,
    /** Named fields of the failure body (message, limit, …). */
    readonly extra: Record<string, unknown> = {},
    /** For `too_many`: seconds until a retry can succeed. */
    readonly retryAfterSec?: number,
  ) {
    super(error);
  }
}

type Extra = Record<string, unknown>;

export const badRequest = (error: string, extra?: Extra) => new DomainError('bad_request', error, extra);
export const unauthorized = (error = 'unauthorized', extra?: Extra) => new DomainError('unauthorized', error, extra);
export const paymentRequired = (error: string, extra?: Extra) => new DomainError('payment_required', error, extra);
export const forbidden = (error = 'forbidden', extra?: Extra) => new DomainError('forbidden', error, extra);
export const notFound = (error = 'not_found', extra?: Extra) => new DomainError('not_found', error, extra);
export const conflict = (error: string, extra?: Extra) => new DomainError('conflict', error, extra);
export const gone = (error: string, extra?: Extra) => new DomainError('gone', error, extra);
export const tooLarge = (error: string, extra?: Extra) => new DomainError('too_large', error, extra);
export const unsupportedMedia = (error: string, extra?: Extra) => new DomainError('unsupported_media', error, extra);
export const unprocessable = (error: string, extra?: Extra) => new DomainError('unprocessable', error, extra);
export const tooMany = (retryAfterSec: number, error = 'too many requests') => new DomainError('too_many', error, {}, retryAfterSec);
const internalError = (error = 'internal error', extra?: Extra) => new DomainError('internal', error, extra);
export const upstreamFailed = (error: string, extra?: Extra) => new DomainError('upstream', error, extra);
export const unavailable = (error: string, extra?: Extra) => new DomainError('unavailable', error, extra);

/** A value a request must not leave empty: returned as is, or 400 `error` with a message for the person at the screen. */
export function required<T>(value: T, error: string, message: string): T {
  if (!value) throw badRequest(error, { message });
  return value;
}
