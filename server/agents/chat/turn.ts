import type { Request, Response } from 'express';
import { DomainError } from '../../core/errors';
import type { AgentsContext } from '../context';
import { runTurn, type TurnInput, type TurnResult } from './chat.service';
import { openSse, sseSend } from './sse';


/** Country of the visitor when a proxy or CDN names it (two letters), else ''. */
export function countryOf(req: Request): string {
  for (const h of ['cf-ipcountry', 'x-vercel-ip-country', 'x-country-code']) {
    const v = req.headers[h];
    if (typeof v === 'string' && /^[A-Za-z]{2}$/.test(v.trim())) return v.trim().toUpperCase();
  }
  return '';
}

export const wantsStream = (req: Request, body: { stream?: boolean | string }) =>
  req.query.stream === '1' || req.query.stream === 'true' || body.stream === true || body.stream === '1';

/**
 * Answer a turn as JSON, or as server-sent events: `start` {conversationId}, `token` {text} per piece,
 * then `done` with the JSON answer (or `error` {error} when the turn fails after the stream opened).
 */
export async function answerTurn(ctx: AgentsContext, res: Response, input: TurnInput, stream: boolean, shape: (r: TurnResult) => Record<string, unknown>) {
  if (!stream) return shape(await runTurn(ctx, input));
  let opened = false;
  try {
    const result = await runTurn(ctx, input, {
      onStart: (conversationId) => {
        openSse(res);
        opened = true;
        sseSend(res, 'start', { conversationId });
      },
      onToken: (text) => sseSend(res, 'token', { text }),
    });
    sseSend(res, 'done', shape(result));
    res.end();
    return undefined;
  } catch (err) {
    if (!opened) throw err;
    sseSend(res, 'error', { error: err instanceof DomainError ? err.error : 'internal error' });
    res.end();
    return undefined;
  }
}
