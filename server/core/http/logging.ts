import type { NextFunction, Request, Response } from 'express';

/** One readable line per request: time, method, path, status, duration. */
export function requestLog(log: (line: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const time = new Date().toISOString().slice(11, 19);
      log(`${time} ${req.method.padEnd(4)} ${req.originalUrl.split('?')[0]} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    next();
  };
}
