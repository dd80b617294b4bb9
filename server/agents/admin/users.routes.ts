import { IdParam } from '../../../shared/api/contracts/agents-common';
import { badRequest, conflict } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';

import { presentUser, setPassword } from '../accounts/accounts.service';
import { IMPERSONATION_SECONDS, membership, mintSession } from '../accounts/session';
import { audit, paging } from './guard';
import { deleteUser, editUser, grantCredits, homeWorkspace, presentAdminUser, searchUsers, sessionAction, setPlatformRole, setSubscription, userById, workspaceBilling } from './users.service';
import { usersResponses } from '../../../shared/api/contracts/agents-admin';
import { usersRequests, usersListQuery } from '../../../shared/api/contracts/agents-admin-requests';
const notSelf = (callerId: string, id: string, what: string) => {
  if (callerId === id) throw badRequest(`you cannot ${what} your own account`);
};

/** Operator routes on user accounts. */
export function adminUserRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  return [
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/users', response: usersResponses['GET /api/admin/users'],
      query: usersListQuery,
      handler: async ({ query }) => {
        const { limit, page, offset } = paging(query);
        const { users, total } = await searchUsers(ctx, query.search ?? '', limit, offset);
        return { users, total, page, limit };
      },
    }),
    route({ ...admin, method: 'get', path: '/api/admin/users/:id', response: usersResponses['GET /api/admin/users/:id'], params: IdParam, handler: async ({ params }) => ({ user: await presentAdminUser(ctx, await userById(ctx, params.id)) }) }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/users/:id', response: usersResponses['PATCH /api/admin/users/:id'],
      params: IdParam,
      body: usersRequests['PATCH /api/admin/users/:id'].body,
      handler: async ({ caller, params, body }) => {
        const u = await userById(ctx, params.id);
        if (body.suspended !== undefined) notSelf(caller.userId, u.id, 'suspend');
        await editUser(ctx, u, body);
        await audit(ctx, caller, 'user.update', 'user', u.id, body);
        return { user: await presentAdminUser(ctx, await userById(ctx, u.id)) };
      },
    }),
    route({
      ...admin,
      method: 'delete',
      path: '/api/admin/users/:id', response: usersResponses['DELETE /api/admin/users/:id'],
      params: IdParam,
      handler: async ({ caller, params }) => {
        notSelf(caller.userId, params.id, 'delete');
        const u = await userById(ctx, params.id);
        const r = await deleteUser(ctx, u.id);
        await audit(ctx, caller, 'user.delete', 'user', u.id, { email: u.email, workspacesDeleted: r.workspaces });
        return { ok: true, workspacesDeleted: r.workspaces };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/password', response: usersResponses['POST /api/admin/users/:id/password'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/password'].body,
      handler: async ({ caller, params, body }) => {
        const u = await userById(ctx, params.id);
        await setPassword(ctx, u.id, body.password);
        await audit(ctx, caller, 'user.password_reset', 'user', u.id);
        return { ok: true, sessionsEnded: true };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/credits', response: usersResponses['POST /api/admin/users/:id/credits'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/credits'].body,
      handler: async ({ caller, params, body }) => {
        const ws = await homeWorkspace(ctx, (await userById(ctx, params.id)).id);
        const balance = await grantCredits(ctx, ws.id, body.amount, body.note ?? '');
        await audit(ctx, caller, 'user.credits', 'workspace', ws.id, { userId: params.id, amount: body.amount, note: body.note ?? '', balance });
        return { workspaceId: ws.id, balance };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/role', response: usersResponses['POST /api/admin/users/:id/role'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/role'].body,
      handler: async ({ caller, params, body }) => {
        const u = await userById(ctx, params.id);
        if (body.role === 'user') notSelf(caller.userId, u.id, 'demote');
        await setPlatformRole(ctx, u.id, body.role);
        await audit(ctx, caller, 'user.role', 'user', u.id, { role: body.role });
        return { user: await presentAdminUser(ctx, await userById(ctx, u.id)) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/subscription', response: usersResponses['POST /api/admin/users/:id/subscription'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/subscription'].body,
      handler: async ({ caller, params, body }) => {
        const ws = await homeWorkspace(ctx, (await userById(ctx, params.id)).id);
        await setSubscription(ctx, ws.id, body);
        await audit(ctx, caller, 'user.subscription', 'workspace', ws.id, { userId: params.id, ...body });
        return { workspaceId: ws.id, billing: await workspaceBilling(ctx, ws.id) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/edit-session', response: usersResponses['POST /api/admin/users/:id/edit-session'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/edit-session'].body,
      handler: async ({ caller, params, body }) => {
        const u = await userById(ctx, params.id);
        if (body.action !== 'restore') notSelf(caller.userId, u.id, body.action === 'revoke' ? 'sign out' : 'suspend');
        // Every action but restore ends the user's sessions at once (token version bump).
        await sessionAction(ctx, u.id, body.action);
        await audit(ctx, caller, `user.session_${body.action}`, 'user', u.id);
        return { user: await presentAdminUser(ctx, await userById(ctx, u.id)) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/impersonate', response: usersResponses['POST /api/admin/users/:id/impersonate'],
      params: IdParam,
      handler: async ({ caller, params }) => {
        notSelf(caller.userId, params.id, 'impersonate');
        const u = await userById(ctx, params.id);
        if (!(await membership(ctx, u.id))) throw conflict('user has no workspace');
        const op = await userById(ctx, caller.userId);
        const token = await mintSession(ctx, u.id, u.token_version, { id: op.id, tokenVersion: op.token_version });
        await audit(ctx, caller, 'user.impersonate', 'user', u.id, { email: u.email });
        return { token, user: await presentUser(ctx, u), impersonator: { id: op.id, email: op.email, name: op.name }, expiresIn: IMPERSONATION_SECONDS };
      },
    }),
  ];
}
