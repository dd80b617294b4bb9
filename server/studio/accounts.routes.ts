import { conflict, unauthorized } from '../core/errors';
import { inviteByEmail, listInvitations, registerAccount } from './invitations';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../core/security/passwords';
import { mintSession, suspended } from './auth';
import { changeMemberRole, listMembers, loginWorkspace, normEmail, removeMemberFrom, userByEmail, workspaceInfo } from './accounts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys';
import { studioRoute } from './route';
import { studioResponses } from '../../shared/api/contracts/studio';
import { accountsRequests, userIdParam, idParam, email, password } from '../../shared/api/contracts/studio-requests';

export const accountRoutes = [
  studioRoute<unknown, unknown, { email: string; password: string; workspace?: string; invite?: string }>({
    method: 'post', path: '/api/auth/register', auth: 'PUBLIC', response: studioResponses.register,
    body: accountsRequests['POST /api/auth/register'].body,
    handler: async ({ body, req, app }) => {
      app.limits.register.hit(req.ip ?? 'unknown', 'too many registrations from this address');
      if (await userByEmail(app.db, body.email)) throw conflict('email already registered');
      const email = normEmail(body.email);
      const hash = await hashPassword(body.password);
      const { uid, ws } = await registerAccount(app.db, email, hash, body.workspace ?? `${email.split('@')[0]}'s workspace`, body.invite);
      return { token: await mintSession(app, uid, ws, email), workspace_id: ws };
    },
  }),
  studioRoute<unknown, unknown, { email: string; password: string; workspace_id?: number }>({
    method: 'post', path: '/api/auth/login', auth: 'PUBLIC', response: studioResponses.login,
    body: accountsRequests['POST /api/auth/login'].body,
    handler: async ({ body, req, app }) => {
      app.limits.login.hit(`${req.ip ?? 'unknown'}|${body.email}`, 'too many login attempts, try again later');
      const user = await userByEmail(app.db, body.email);
      if (!user) {
        await burnPasswordCheck(body.password);
        throw unauthorized('invalid email or password');
      }
      if (!(await verifyPassword(body.password, user.password_hash))) throw unauthorized('invalid email or password');
      if (Number(user.suspended)) throw suspended();
      const uid = Number(user.id);
      const ws = await loginWorkspace(app.db, uid, body.workspace_id);
      return { token: await mintSession(app, uid, ws, user.email), workspace_id: ws };
    },
  }),
  studioRoute({
    method: 'get', path: '/api/me', auth: 'AUTH', response: studioResponses.me,
    handler: async ({ caller, app }) => ({
      user: { id: caller.uid, email: caller.email },
      workspace: await workspaceInfo(app.db, caller.ws),
      role: caller.role,
      actor: caller.actor,
    }),
  }),

  // Members (seats)
  studioRoute({
    method: 'get', path: '/api/workspace/members', auth: 'AUTH', response: studioResponses.members,
    handler: async ({ caller, app }) => ({ members: await listMembers(app.db, caller.ws), invitations: await listInvitations(app.db, caller.ws) }),
  }),
  studioRoute<unknown, unknown, { email: string; role: 'editor' | 'viewer' | 'client' }>({
    method: 'post', path: '/api/workspace/members', auth: 'OWNER_PERSON', response: studioResponses.invite,
    body: accountsRequests['POST /api/workspace/members'].body,
    handler: async ({ caller, body, app }) => {
      // Adding by email invites: only whoever holds the mailed link (and that address) joins.
      const invitation = await inviteByEmail(app, caller.ws, caller.uid, normEmail(body.email), body.role);
      return { invitation, members: await listMembers(app.db, caller.ws), invitations: await listInvitations(app.db, caller.ws) };
    },
  }),
  studioRoute<{ user_id: number }, unknown, { role: 'editor' | 'viewer' | 'client' }>({
    method: 'patch', path: '/api/workspace/members/:user_id', auth: 'OWNER_PERSON', response: studioResponses.members,
    params: userIdParam, body: accountsRequests['PATCH /api/workspace/members/:user_id'].body,
    handler: async ({ caller, params, body, app }) => ({ members: await changeMemberRole(app.db, caller.ws, params.user_id, body.role) }),
  }),
  studioRoute<{ user_id: number }>({
    method: 'delete', path: '/api/workspace/members/:user_id', auth: 'OWNER_PERSON', params: userIdParam, response: studioResponses.members,
    handler: async ({ caller, params, app }) => ({ members: await removeMemberFrom(app.db, caller.ws, params.user_id) }),
  }),

  // API keys: minted, listed without secrets, revoked; never by an API key
  studioRoute({
    method: 'get', path: '/api/settings/api-keys', auth: 'OWNER_PERSON', response: studioResponses.keys,
    handler: async ({ caller, app }) => ({ keys: await listApiKeys(app, caller.ws) }),
  }),
  studioRoute<unknown, unknown, { name: string }>({
    method: 'post', path: '/api/settings/api-keys', auth: 'OWNER_PERSON', response: studioResponses.mintKey,
    body: accountsRequests['POST /api/settings/api-keys'].body,
    handler: ({ caller, body, app }) => createApiKey(app, caller.ws, caller.uid, body.name),
  }),
  studioRoute<{ id: string }>({
    method: 'post', path: '/api/settings/api-keys/:id/revoke', auth: 'OWNER_PERSON', params: idParam, response: studioResponses.revokeKey,
    handler: async ({ caller, params, app }) => {
      await revokeApiKey(app, caller.ws, params.id);
      return { ok: true };
    },
  }),
];
