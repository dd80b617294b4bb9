/** Response contracts of the agent platform's workspace routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import { WorkspaceRecord } from './agents-records';

export const MemberRecord = z.looseObject({
  id: z.string(),
  user_id: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  status: z.string(),
  created_at: z.string(),
});

/** Success bodies of workspace/workspace.routes.ts, by route. */
export const workspaceResponses = {
  'DELETE /api/workspace/api-keys/:kid': z.looseObject({ ok: z.boolean() }),
  'DELETE /api/workspace/members/:mid': z.looseObject({ ok: z.boolean() }),
  'GET /api/workspace/api-keys': z.looseObject({
    keys: z.array(
      z.looseObject({ id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string(), last_used_at: z.unknown() }),
    ),
  }),
  'GET /api/workspace/general': z.looseObject({ workspace: WorkspaceRecord }),
  'GET /api/workspace/members': z.looseObject({
    members: z.array(MemberRecord),
    seats: z.looseObject({ used: z.number(), limit: z.number() }),
  }),
  'GET /api/workspaces': z.looseObject({ workspaces: z.array(WorkspaceRecord), active: z.string() }),
  'PATCH /api/workspace/general': z.looseObject({ workspace: WorkspaceRecord }),
  'PATCH /api/workspace/members/:mid': z.looseObject({ member: MemberRecord }),
  'POST /api/workspace/api-keys': z.looseObject({
    key: z.looseObject({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      created_at: z.string(),
      last_used_at: z.unknown(),
    }),
    secret: z.string(),
  }),
  'POST /api/workspace/members': z.looseObject({ member: MemberRecord }),
  'POST /api/workspaces/switch': z.looseObject({ workspace: WorkspaceRecord, workspaces: z.array(WorkspaceRecord) }),
  'POST /api/workspace/invitations/accept': z.looseObject({ workspace: WorkspaceRecord, workspaces: z.array(WorkspaceRecord) }),
};
