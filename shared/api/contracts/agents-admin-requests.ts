/** Request contracts of the agent platform's admin routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { TICKET_CATEGORIES, TICKET_PRIORITIES, TICKET_STATUSES, TIER_ALLOWANCE, bundleSchema, settingsSchema } from './agents-values';

export const affParam = z.object({ id: z.string().min(1).max(64) });

export const payoutParam = z.object({ pid: z.string().min(1).max(64) });

export const affiliatesListQuery = z.object({
  status: z.enum(['none', 'pending', 'verified', 'rejected']).optional(),
  search: z.string().max(200).optional(),
  limit: z.coerce.number().int().optional(),
  page: z.coerce.number().int().optional(),
});

export const payoutQuery = z.object({ status: z.enum(['requested', 'paid', 'rejected']).optional(), limit: z.coerce.number().int().optional(), page: z.coerce.number().int().optional() });

export const kycDecision = z.object({ decision: z.enum(['verified', 'rejected']), note: z.string().max(500).optional() });

export const payoutDecision = z.object({ decision: z.enum(['paid', 'rejected']), note: z.string().max(500).optional() });

export const pageParam = z.object({ page: z.string().max(40).regex(/^[a-z0-9][a-z0-9-]*$/, 'page may hold a-z, 0-9 and -') });

export const platformListQuery = z.object({ search: z.string().max(200).optional(), workspace: z.string().max(64).optional(), limit: z.coerce.number().int().optional(), page: z.coerce.number().int().optional() });

export const usersListQuery = z.object({ search: z.string().max(200).optional(), limit: z.coerce.number().int().optional(), page: z.coerce.number().int().optional() });

/** Request schemas of admin/backups.routes.ts, by route. */
export const backupsRequests = {
  'GET /api/backups/download/:name': { params: z.object({ name: z.string().max(200) }) },
};

/** Request schemas of admin/content.routes.ts, by route. */
export const contentRequests = {
  'PUT /api/admin/settings': { body: settingsSchema.partial() },
  'PUT /api/admin/bundles': { body: z.object({ bundles: z.array(bundleSchema).min(1, 'bundles must hold at least one bundle').max(20) }) },
  'GET /api/admin/tickets': { query: z.object({ status: z.enum(TICKET_STATUSES).optional(), limit: z.coerce.number().int().optional(), page: z.coerce.number().int().optional() }) },
  'GET /api/admin/tickets/:id': { params: z.object({ id: z.string().max(64) }) },
  'PATCH /api/admin/tickets/:id': { params: z.object({ id: z.string().max(64) }), body: z.object({
        status: z.enum(TICKET_STATUSES, `status must be one of ${TICKET_STATUSES.join(', ')}`).optional(),
        priority: z.enum(TICKET_PRIORITIES, `priority must be one of ${TICKET_PRIORITIES.join(', ')}`).optional(),
        category: z.enum(TICKET_CATEGORIES, `category must be one of ${TICKET_CATEGORIES.join(', ')}`).optional(),
      }) },
};

/** Request schemas of admin/platform.routes.ts, by route. */
export const platformRequests = {
  'GET /api/admin/activity': { query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }) },
  'PATCH /api/admin/workspaces/:id': { body: z.object({
        name: z.string().trim().min(1, 'name must not be empty').max(120).optional(),
        tier: z.enum(Object.keys(TIER_ALLOWANCE) as [string, ...string[]], `tier must be one of ${Object.keys(TIER_ALLOWANCE).join(', ')}`).optional(),
        paused: z.boolean().optional(),
      }) },
  'PATCH /api/admin/agents/:id': { body: z.object({ status: z.enum(['active', 'paused', 'draft'], 'status must be active, paused or draft').optional(), visibility: z.enum(['public', 'private'], 'visibility must be public or private').optional() }) },
};

/** Request schemas of admin/users.routes.ts, by route. */
export const usersRequests = {
  'PATCH /api/admin/users/:id': { body: z.object({
        name: z.string().trim().max(120).optional(),
        email: z.string().trim().toLowerCase().max(254).pipe(z.email('enter a valid email')).optional(),
        suspended: z.boolean().optional(),
      }) },
  'POST /api/admin/users/:id/password': { body: z.object({ password: z.string().min(6, 'password must be at least 6 characters').max(200) }) },
  'POST /api/admin/users/:id/credits': { body: z.object({ amount: z.number().int('amount must be a whole number').refine((n) => n !== 0, 'amount must not be 0').refine((n) => Math.abs(n) <= 10_000_000, 'amount is too large'), note: z.string().max(500).optional() }) },
  'POST /api/admin/users/:id/role': { body: z.object({ role: z.enum(['user', 'admin'], 'role must be user or admin') }) },
  'POST /api/admin/users/:id/subscription': { body: z
        .object({
          tier: z.enum(Object.keys(TIER_ALLOWANCE) as [string, ...string[]], `tier must be one of ${Object.keys(TIER_ALLOWANCE).join(', ')}`).optional(),
          status: z.enum(['active', 'paused'], 'status must be active or paused').optional(),
        })
        .refine((b) => b.tier !== undefined || b.status !== undefined, 'tier or status is required') },
  'POST /api/admin/users/:id/edit-session': { body: z.object({ action: z.enum(['revoke', 'suspend', 'restore'], 'action must be revoke, suspend or restore') }) },
};
