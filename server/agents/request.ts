import type { Request } from 'express';
import { RateLimiter } from '../core/http/rate-limit';

/** Who may call a route: anyone, or a signed-in member (Bearer token or session cookie). */
export type AgentAuth = 'public' | 'bearer';

/** Section 8 of the contract. */
export interface AgentsLimits {
  auth: RateLimiter;
  publicConfig: RateLimiter;
  publicPost: RateLimiter;
  publicPoll: RateLimiter;
  /** GET avatar-video: 10 per minute per IP. */
  publicAvatarVideo: RateLimiter;
  chat: RateLimiter;
}

export function createLimits(now: () => number = Date.now): AgentsLimits {
  return {
    auth: new RateLimiter(20, 5 * 60_000, now),
    publicConfig: new RateLimiter(30, 60_000, now),
    publicPost: new RateLimiter(30, 60_000, now),
    publicPoll: new RateLimiter(120, 60_000, now),
    publicAvatarVideo: new RateLimiter(10, 60_000, now),
    chat: new RateLimiter(60, 60_000, now),
  };
}

export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
