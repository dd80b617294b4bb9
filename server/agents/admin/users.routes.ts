import { IdParam } from '../../../shared/api/contracts/agents-common';
import { badRequest, conflict } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';

import { normEmail, presentUser, setPassword, type UserRow } from '../accounts/accounts.service';
import { IMPERSONATION_SECONDS, membership, mintSession } from '../accounts/session';
import { audit, paging } from './guard';
import { deleteUser, grantCredits, homeWorkspace, presentAdminUser, userById, workspaceBilling } from './users.service';
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
      handler: ({ query }) => {
        const { limit, page, offset } = paging(query);
        const like = `%${(query.search ?? '').trim().toLowerCase()}%`;
        const where = 'WHERE lower(email) LIKE ? OR lower(name) LIKE ? OR id = ?';
        const total = (ctx.legacyDb.prepare(`SELECT COUNT(*) AS n FROM users ${where}`).get(like, like, query.search ?? '') as { n: number }).n;
        const rows = ctx.legacyDb.prepare(`SELECT * FROM users ${where} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`).all(like, like, query.search ?? '', limit, offset) as UserRow[];
        return { users: rows.map((u) => presentAdminUser(ctx, u)), total, page, limit };
      },
    }),
    route({ ...admin, method: 'get', path: '/api/admin/users/:id', response: usersResponses['GET /api/admin/users/:id'], params: IdParam, handler: ({ params }) => ({ user: presentAdminUser(ctx, userById(ctx, params.id)) }) }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/users/:id', response: usersResponses['PATCH /api/admin/users/:id'],
      params: IdParam,
      body: usersRequests['PATCH /api/admin/users/:id'].body,
      handler: ({ caller, params, body }) => {
        const u = userById(ctx, params.id);
        if (body.suspended !== undefined) notSelf(caller.userId, u.id, 'suspend');
        if (body.email && body.email !== u.email && ctx.legacyDb.prepare('SELECT 1 FROM users WHERE email = ?').get(normEmail(body.email))) throw conflict('email already registered');
        ctx.legacyDb
          .prepare('UPDATE users SET name = ?, email = ?, suspended = ? WHERE id = ?')
          .run(body.name ?? u.name, body.email ?? u.email, body.suspended === undefined ? u.suspended : body.suspended ? 1 : 0, u.id);
        audit(ctx, caller, 'user.update', 'user', u.id, body);
        return { user: presentAdminUser(ctx, userById(ctx, u.id)) };
      },
    }),
    route({
      ...admin,
      method: 'delete',
      path: '/api/admin/users/:id', response: usersResponses['DELETE /api/admin/users/:id'],
      params: IdParam,
      handler: ({ caller, params }) => {
        notSelf(caller.userId, params.id, 'delete');
        const u = userById(ctx, params.id);
        const r = deleteUser(ctx, u.id);
        audit(ctx, caller, 'user.delete', 'user', u.id, { email: u.email, workspacesDeleted: r.workspaces });
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
        const u = userById(ctx, params.id);
        await setPassword(ctx, u.id, body.password);
        audit(ctx, caller, 'user.password_reset', 'user', u.id);
        return { ok: true, sessionsEnded: true };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/credits', response: usersResponses['POST /api/admin/users/:id/credits'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/credits'].body,
      handler: ({ caller, params, body }) => {
        const ws = homeWorkspace(ctx, userById(ctx, params.id).id);
        const balance = grantCredits(ctx, ws.id, body.amount, body.note ?? '');
        audit(ctx, caller, 'user.credits', 'workspace', ws.id, { userId: params.id, amount: body.amount, note: body.note ?? '', balance });
        return { workspaceId: ws.id, balance };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/role', response: usersResponses['POST /api/admin/users/:id/role'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/role'].body,
      handler: ({ caller, params, body }) => {
        const u = userById(ctx, params.id);
        if (body.role === 'user') notSelf(caller.userId, u.id, 'demote');
        ctx.legacyDb.prepare('UPDATE users SET platform_role = ? WHERE id = ?').run(body.role, u.id);
        audit(ctx, caller, 'user.role', 'user', u.id, { role: body.role });
        return { user: presentAdminUser(ctx, userById(ctx, u.id)) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/subscription', response: usersResponses['POST /api/admin/users/:id/subscription'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/subscription'].body,
      handler: async ({ caller, params, body }) => {
        const ws = homeWorkspace(ctx, userById(ctx, params.id).id);
        ctx.legacyDb.prepare('UPDATE workspaces SET tier = ?, paused = ? WHERE id = ?').run(body.tier ?? ws.tier, body.status === undefined ? ws.paused : body.status === 'paused' ? 1 : 0, ws.id);
        audit(ctx, caller, 'user.subscription', 'workspace', ws.id, { userId: params.id, ...body });
        return { workspaceId: ws.id, billing: await workspaceBilling(ctx, ws.id) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/edit-session', response: usersResponses['POST /api/admin/users/:id/edit-session'],
      params: IdParam,
      body: usersRequests['POST /api/admin/users/:id/edit-session'].body,
      handler: ({ caller, params, body }) => {
        const u = userById(ctx, params.id);
        if (body.action !== 'restore') notSelf(caller.userId, u.id, body.action === 'revoke' ? 'sign out' : 'suspend');
        // Every action but restore ends the user's sessions at once (token version bump).
        if (body.action === 'revoke') ctx.legacyDb.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?').run(u.id);
        if (body.action === 'suspend') ctx.legacyDb.prepare('UPDATE users SET suspended = 1, token_version = token_version + 1 WHERE id = ?').run(u.id);
        if (body.action === 'restore') ctx.legacyDb.prepare('UPDATE users SET suspended = 0 WHERE id = ?').run(u.id);
        audit(ctx, caller, `user.session_${body.action}`, 'user', u.id);
        return { user: presentAdminUser(ctx, userById(ctx, u.id)) };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/users/:id/impersonate', response: usersResponses['POST /api/admin/users/:id/impersonate'],
      params: IdParam,
      handler: async ({ caller, params }) => {
        notSelf(caller.userId, params.id, 'impersonate');
        const u = userById(ctx, params.id);
        if (!(await membership(ctx, u.id))) throw conflict('user has no workspace');
        const op = userById(ctx, caller.userId);
        const token = await mintSession(ctx, u.id, u.token_version, { id: op.id, tokenVersion: op.token_version });
        audit(ctx, caller, 'user.impersonate', 'user', u.id, { email: u.email });
        return { token, user: presentUser(ctx, u), impersonator: { id: op.id, email: op.email, name: op.name }, expiresIn: IMPERSONATION_SECONDS };
      },
    }),
  ];
}
