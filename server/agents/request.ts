import type { Request } from 'express';
import { RateLimiter } from '../core/http/rate-limit';

/**
 * Who may call a route (section 5 of the contract), checked before the route reads its input:
 *   public    anyone (sign-in, widget, provider callbacks: those verify their own signature)
 *   bearer    any signed-in member of the workspace, viewers included (Bearer token or session cookie)
 *   editor    the owner or a member: changes agents, knowledge, inbox, widget, channels, webhooks, domains, campaigns
 *   owner     the workspace owner: members, billing, API keys, the webhook secret, workspace settings
 *   operator  a platform operator (never an impersonation session)
 */
export const AGENT_ACCESS = ['public', 'bearer', 'editor', 'owner', 'operator'] as const;
export type AgentAuth = (typeof AGENT_ACCESS)[number];

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
