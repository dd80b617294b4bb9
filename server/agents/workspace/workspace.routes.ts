import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { requireOwner } from '../roles';
import { acceptInvitation, inviteMember } from './invitations.service';
import { changeRole, createKey, deleteKey, listKeys, listMembers, removeMember, switchWorkspace, updateWorkspace, userWorkspaces, workspaceRecord } from './workspace.service';
import { workspaceResponses } from '../../../shared/api/contracts/agents-workspace';
import { workspaceRequests, mid, role, email } from '../../../shared/api/contracts/agents-workspace-requests';

export function workspaceRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/workspaces', response: workspaceResponses['GET /api/workspaces'],
      auth: 'bearer',
      handler: ({ caller }) => ({ workspaces: userWorkspaces(ctx, caller.userId, caller.ws), active: caller.ws }),
    }),
    route({
      method: 'post',
      path: '/api/workspaces/switch', response: workspaceResponses['POST /api/workspaces/switch'],
      auth: 'bearer',
      body: workspaceRequests['POST /api/workspaces/switch'].body,
      handler: ({ caller, body }) => {
        // Every session of the user acts in the chosen workspace from the next request on, with its role there.
        const m = switchWorkspace(ctx, caller.userId, body.workspaceId);
        return { workspace: workspaceRecord(ctx, m.ws, m.role), workspaces: userWorkspaces(ctx, caller.userId, m.ws) };
      },
    }),
    route({
      method: 'get',
      path: '/api/workspace/general', response: workspaceResponses['GET /api/workspace/general'],
      auth: 'bearer',
      handler: ({ caller }) => ({ workspace: workspaceRecord(ctx, caller.ws, caller.role) }),
    }),
    route({
      method: 'patch',
      path: '/api/workspace/general', response: workspaceResponses['PATCH /api/workspace/general'],
      auth: 'owner',
      body: workspaceRequests['PATCH /api/workspace/general'].body,
      handler: async ({ caller, body }) => {
        await updateWorkspace(ctx, caller.ws, body);
        return { workspace: workspaceRecord(ctx, caller.ws, caller.role) };
      },
    }),
    route({
      method: 'get',
      path: '/api/workspace/members', response: workspaceResponses['GET /api/workspace/members'],
      auth: 'bearer',
      handler: ({ caller }) => {
        const w = workspaceRecord(ctx, caller.ws, caller.role);
        return { members: listMembers(ctx, caller.ws), seats: w.seats };
      },
    }),
    route({
      method: 'post',
      path: '/api/workspace/members', response: workspaceResponses['POST /api/workspace/members'],
      auth: 'owner',
      body: workspaceRequests['POST /api/workspace/members'].body,
      handler: async ({ caller, body }) => ({ member: await inviteMember(ctx, caller.ws, caller.userId, body.email, body.role) }),
    }),
    route({
      method: 'post',
      path: '/api/workspace/invitations/accept', response: workspaceResponses['POST /api/workspace/invitations/accept'],
      auth: 'bearer',
      body: workspaceRequests['POST /api/workspace/invitations/accept'].body,
      handler: ({ caller, body }) => {
        // Any signed-in account, whatever its role where it acts now: the token and its own address are the proof.
        const m = acceptInvitation(ctx, caller.userId, body.token);
        return { workspace: workspaceRecord(ctx, m.ws, m.role), workspaces: userWorkspaces(ctx, caller.userId, m.ws) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/workspace/members/:mid', response: workspaceResponses['PATCH /api/workspace/members/:mid'],
      auth: 'owner',
      params: mid,
      body: workspaceRequests['PATCH /api/workspace/members/:mid'].body,
      handler: ({ caller, params, body }) => ({ member: changeRole(ctx, caller.ws, params.mid, body.role) }),
    }),
    route({
      method: 'delete',
      path: '/api/workspace/members/:mid', response: workspaceResponses['DELETE /api/workspace/members/:mid'],
      auth: 'bearer',
      params: mid,
      handler: ({ caller, params }) => {
        // A member may leave; removing someone else is the owner's.
        if (params.mid !== caller.userId) requireOwner(caller);
        removeMember(ctx, caller.ws, params.mid);
        return { ok: true };
      },
    }),
    route({
      method: 'get',
      path: '/api/workspace/api-keys', response: workspaceResponses['GET /api/workspace/api-keys'],
      auth: 'bearer',
      handler: ({ caller }) => ({ keys: listKeys(ctx, caller.ws) }),
    }),
    route({
      method: 'post',
      path: '/api/workspace/api-keys', response: workspaceResponses['POST /api/workspace/api-keys'],
      auth: 'owner',
      body: workspaceRequests['POST /api/workspace/api-keys'].body,
      handler: ({ caller, body }) => createKey(ctx, caller.ws, caller.userId, body.name || 'API key'),
    }),
    route({
      method: 'delete',
      path: '/api/workspace/api-keys/:kid', response: workspaceResponses['DELETE /api/workspace/api-keys/:kid'],
      auth: 'owner',
      params: workspaceRequests['DELETE /api/workspace/api-keys/:kid'].params,
      handler: ({ caller, params }) => {
        deleteKey(ctx, caller.ws, params.kid);
        return { ok: true };
      },
    }),
  ];
}
