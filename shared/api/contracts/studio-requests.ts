/** Request contracts of the Publishing Studio routes (docs/spec/studio-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { PLAN_NAMES } from './studio';

export const email = z.string().trim().toLowerCase().email().max(254);

export const password = z.string().min(8, 'password must be at least 8 characters').max(200);

export const idParam = z.object({ id: z.string().min(1).max(80) });

export const userIdParam = z.object({ user_id: z.coerce.number().int().positive() });

export const assignable = z.enum(['editor', 'viewer', 'client']);

export const workspaceId = z.coerce.number().int().positive();

export const generationBody = z.object({
  model: z.string().trim().min(1).max(120),
  prompt: z.string().trim().min(1, 'prompt is required').max(4000),
  settings: z.record(z.string(), z.unknown()).optional(),
  media: z.record(z.string(), z.unknown()).optional(),
});

export const jobParam = z.object({ id: z.string().min(1).max(80) });

/** Request schemas of accounts.routes.ts, by route. */
export const accountsRequests = {
  /** `invite`: the token of an invitation mailed to this address; the session then acts in that workspace. */
  'POST /api/auth/register': { body: z.object({ email, password, workspace: z.string().trim().min(1).max(120).optional(), invite: z.string().trim().min(1).max(200).optional() }) },
  'POST /api/auth/password': { body: z.object({ current_password: z.string().min(1).max(200), password }) },
  'POST /api/workspace/invitations/accept': { body: z.object({ token: z.string().trim().min(1, 'token is required').max(200) }) },
  'POST /api/auth/login': { body: z.object({ email, password: z.string().min(1).max(200), workspace_id: z.coerce.number().int().positive().optional() }) },
  'POST /api/workspace/members': { body: z.object({ email, role: assignable }) },
  'PATCH /api/workspace/members/:user_id': { body: z.object({ role: assignable }) },
  'POST /api/settings/api-keys': { body: z.object({ name: z.string().trim().min(1).max(80) }) },
};

/** Request schemas of billing.routes.ts, by route. */
export const billingRequests = {
  'POST /api/billing/plan': { body: z.object({ plan: z.enum(PLAN_NAMES) }) },
  'POST /api/posts': { body: z.object({
      title: z.string().trim().min(1).max(200),
      body: z.string().max(20_000),
      scheduled_at: z.iso.datetime({ offset: true }).optional(),
    }) },
  'POST /api/influencers/analyze': { body: z.object({ handle: z.string().trim().min(1).max(100), platform: z.string().trim().max(40).optional(), url: z.url().max(500).optional() }) },
  'POST /api/admin/credits': { body: z.object({ workspace_id: workspaceId, amount: z.number().int().refine((n) => n !== 0, 'amount must not be 0'), note: z.string().max(200).optional() }) },
  'POST /api/admin/passes': { body: z
      .object({
        workspace_id: workspaceId,
        scope: z.string().trim().max(120),
        surface: z.enum(['image', 'video', 'audio']).optional(),
        expires_at: z.iso.datetime({ offset: true }).optional(),
      })
      .refine((b) => b.scope !== '' || b.surface !== undefined, { message: 'a pass with an empty scope needs a surface', path: ['surface'] }) },
  'POST /api/admin/suspend': { body: z.object({ user_id: z.coerce.number().int().positive(), suspended: z.boolean() }) },
};
