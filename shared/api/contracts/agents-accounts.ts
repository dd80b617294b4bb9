/** Response contracts of the agent platform's accounts routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import { BillingSummary, UserRecord } from './agents-records';

/** Success bodies of accounts/auth.routes.ts, by route. */
export const authResponses = {
  'GET /api/auth/2fa/status': z.looseObject({ enabled: z.boolean() }),
  'GET /api/auth/me': z.looseObject({
    user: UserRecord,
    workspace: z.looseObject({ id: z.string(), name: z.string(), tier: z.string(), role: z.string(), created_at: z.string() }),
    billing: BillingSummary,
    impersonator: z.looseObject({ id: z.string(), email: z.string(), name: z.string() }).nullable(),
  }),
  'PATCH /api/auth/theme': z.looseObject({ ok: z.boolean(), theme: z.string() }),
  'POST /api/auth/2fa/disable': z.looseObject({ ok: z.boolean(), enabled: z.boolean() }),
  'POST /api/auth/2fa/enable': z.looseObject({ ok: z.boolean(), enabled: z.boolean() }),
  'POST /api/auth/2fa/setup': z.looseObject({ secret: z.string(), otpauth: z.string() }),
  'POST /api/auth/forgot': z.looseObject({ ok: z.boolean() }),
  'POST /api/auth/login': z.looseObject({ user: UserRecord, token: z.string() }),
  'POST /api/auth/logout': z.looseObject({ ok: z.boolean() }),
  'POST /api/auth/password': z.looseObject({ user: UserRecord, token: z.string() }),
  'POST /api/auth/register': z.looseObject({ user: UserRecord, token: z.string() }),
  'POST /api/auth/reset': z.looseObject({ ok: z.boolean() }),
  'POST /api/auth/verify': z.looseObject({ ok: z.literal(true), email: z.string(), user: UserRecord }),
  'POST /api/auth/verify/resend': z.looseObject({ ok: z.literal(true), emailVerified: z.boolean() }),
};
