import type { NextFunction, Request, Response } from 'express';
import { unsupportedMedia } from '../errors';

/** A request body the API cannot read (form posts, text/plain) is refused with 415 instead of read as {}. */
export function jsonBodiesOnly(message: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('application/json')) {
      next(unsupportedMedia('unsupported media type', { message }));
      return;
    }
    next();
  };
}

export const refuseNonJsonBodies = jsonBodiesOnly('リクエスト本文は JSON (Content-Type: application/json) で送信してください');
