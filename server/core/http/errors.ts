import { DomainError, type ErrorKind } from '../errors';

/** The one place a domain error kind becomes an HTTP status. */
const STATUS_OF: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  too_many: 429,
  internal: 500,
  upstream: 502,
  unavailable: 503,
  not_implemented: 501,
};

/** A failure as the wire sees it: status, headers and the fields the service's envelope writes. */
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

export function fromDomainError(err: DomainError): HttpError {
  const headers: Record<string, string> = {};
  if (err.kind === 'too_many' && err.retryAfterSec !== undefined) headers['Retry-After'] = String(Math.max(1, Math.ceil(err.retryAfterSec)));
  return new HttpError(STATUS_OF[err.kind], err.error, err.extra, headers);
}

/** The kind of an HTTP status another service answered with (undefined for a status no kind has). */
export function kindOfStatus(status: number): ErrorKind | undefined {
  return (Object.keys(STATUS_OF) as ErrorKind[]).find((k) => STATUS_OF[k] === status);
}
