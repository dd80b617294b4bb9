/** Request contracts of the agent platform's workspace routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { ASSIGNABLE_ROLES, TIERS } from './agents-values';

export const email = z.string().trim().toLowerCase().max(254).pipe(z.email('enter a valid email'));

export const role = z.enum(ASSIGNABLE_ROLES, 'role must be member or viewer');

export const mid = z.object({ mid: z.string().max(64) });

/** Request schemas of workspace/workspace.routes.ts, by route. */
export const workspaceRequests = {
  'POST /api/workspaces/switch': { body: z.object({ workspaceId: z.string().trim().min(1, 'workspaceId is required').max(64) }) },
  'PATCH /api/workspace/general': { body: z.object({
        name: z.string().trim().min(1, 'name must not be empty').max(80).optional(),
        tier: z.enum(TIERS as [string, ...string[]], `tier must be one of ${TIERS.join(', ')}`).optional(),
      }) },
  'POST /api/workspace/members': { body: z.object({ email, role: role.default('member') }) },
  /** A signed-in account accepts an invitation mailed to its own address. */
  'POST /api/workspace/invitations/accept': { body: z.object({ token: z.string().trim().min(1, 'token is required').max(200) }) },
  'PATCH /api/workspace/members/:mid': { body: z.object({ role }) },
  'POST /api/workspace/api-keys': { body: z.object({ name: z.string().trim().max(80).optional() }) },
  'DELETE /api/workspace/api-keys/:kid': { params: z.object({ kid: z.string().max(64) }) },
};
