/** Request contracts of the agent platform's accounts routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';

export const email = z.string().trim().toLowerCase().max(254).pipe(z.email('enter a valid email'));

export const password = z.string().min(6, 'password must be at least 6 characters').max(200);

export const code = z.union([z.string(), z.number()]).transform(String);

/** A token mailed in a link (invitation, email verification): opaque, bounded. */
export const mailedToken = (what: string) => z.string().trim().min(1, `${what} is required`).max(200);

/** Request schemas of accounts/auth.routes.ts, by route. */
export const authRequests = {
  /** `invite`: the token of an invitation mailed to this address; without it the account joins no workspace but its own. */
  'POST /api/auth/register': { body: z.object({ email, password, name: z.string().trim().max(120).optional(), invite: mailedToken('invite').optional() }) },
  'POST /api/auth/verify': { body: z.object({ token: mailedToken('token') }) },
  'POST /api/auth/login': { body: z.object({ email: z.string().trim().max(254), password: z.string().max(200), code: code.optional() }) },
  'POST /api/auth/forgot': { body: z.object({ email: z.string().max(254).optional() }) },
  'POST /api/auth/reset': { body: z.object({ token: z.string().min(1, 'token is required').max(200), password }) },
  'POST /api/auth/password': { body: z.object({ currentPassword: z.string().max(200), password }) },
  'POST /api/auth/2fa/enable': { body: z.object({ code }) },
  'POST /api/auth/2fa/disable': { body: z.object({ code }) },
  'PATCH /api/auth/theme': { body: z.object({ theme: z.enum(['light', 'dark'], 'theme must be light or dark') }) },
};
