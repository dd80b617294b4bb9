import { badRequest, conflict, notFound, unauthorized } from '../core/errors';
import { invitationFor, inviteByEmail, joinByInvitation, listInvitations } from './invitations';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../core/security/passwords';
import { mintApiKey } from '../core/security/api-keys';
import { randomBytes } from 'node:crypto';
import { API_KEY_LABEL, mintSession, suspended } from './auth';
import { createUserWithWorkspace, listMembers, loginWorkspace, membership, normEmail, userByEmail, workspaceInfo } from './accounts';
import { nowIso, stmt } from './db';
import { studioRoute } from './route';
import { studioResponses } from '../../shared/api/contracts/studio';
import { accountsRequests, userIdParam, idParam, email, password } from '../../shared/api/contracts/studio-requests';

export const accountRoutes = [
  studioRoute<unknown, unknown, { email: string; password: string; workspace?: string; invite?: string }>({
    method: 'post', path: '/api/auth/register', auth: 'PUBLIC', response: studioResponses.register,
    body: accountsRequests['POST /api/auth/register'].body,
    handler: async ({ body, req, app }) => {
      app.limits.register.hit(req.ip ?? 'unknown', 'too many registrations from this address');
      if (userByEmail(app.db, body.email)) throw conflict('email already registered');
      const email = normEmail(body.email);
      const hash = await hashPassword(body.password);
      // With an invitation token mailed to this address the account also joins that workspace and acts there;
      // a wrong, used, expired or foreign token refuses the registration with nothing stored. Without one
      // it joins nothing but its own workspace, whoever invited the address.
      const { uid, ws } = app.db.transaction(() => {
        const inv = body.invite === undefined ? null : invitationFor(app.db, body.invite, email);
        const made = createUserWithWorkspace(app.db, email, hash, body.workspace ?? `${email.split('@')[0]}'s workspace`);
        if (!inv) return made;
        joinByInvitation(app.db, inv, made.uid);
        return { uid: made.uid, ws: inv.workspace_id };
      })();
      return { token: await mintSession(app, uid, ws, email), workspace_id: ws };
    },
  }),
  studioRoute<unknown, unknown, { email: string; password: string; workspace_id?: number }>({
    method: 'post', path: '/api/auth/login', auth: 'PUBLIC', response: studioResponses.login,
    body: accountsRequests['POST /api/auth/login'].body,
    handler: async ({ body, req, app }) => {
      app.limits.login.hit(`${req.ip ?? 'unknown'}|${body.email}`, 'too many login attempts, try again later');
      const user = userByEmail(app.db, body.email);
      if (!user) {
        await burnPasswordCheck(body.password);
        throw unauthorized('invalid email or password');
      }
      if (!(await verifyPassword(body.password, user.password_hash))) throw unauthorized('invalid email or password');
      if (user.suspended) throw suspended();
      const ws = loginWorkspace(app.db, user.id, body.workspace_id);
      return { token: await mintSession(app, user.id, ws, user.email), workspace_id: ws };
    },
  }),
  studioRoute({
    method: 'get', path: '/api/me', auth: 'AUTH', response: studioResponses.me,
    handler: ({ caller, app }) => ({
      user: { id: caller.uid, email: caller.email },
      workspace: workspaceInfo(app.db, caller.ws),
      role: caller.role,
      actor: caller.actor,
    }),
  }),

  // Members (seats)
  studioRoute({
    method: 'get', path: '/api/workspace/members', auth: 'AUTH', response: studioResponses.members,
    handler: ({ caller, app }) => ({ members: listMembers(app.db, caller.ws), invitations: listInvitations(app.db, caller.ws) }),
  }),
  studioRoute<unknown, unknown, { email: string; role: 'editor' | 'viewer' | 'client' }>({
    method: 'post', path: '/api/workspace/members', auth: 'OWNER_PERSON', response: studioResponses.invite,
    body: accountsRequests['POST /api/workspace/members'].body,
    handler: async ({ caller, body, app }) => {
      // Adding by email invites: only whoever holds the mailed link (and that address) joins.
      const invitation = await inviteByEmail(app, caller.ws, caller.uid, normEmail(body.email), body.role);
      return { invitation, members: listMembers(app.db, caller.ws), invitations: listInvitations(app.db, caller.ws) };
    },
  }),
  studioRoute<{ user_id: number }, unknown, { role: 'editor' | 'viewer' | 'client' }>({
    method: 'patch', path: '/api/workspace/members/:user_id', auth: 'OWNER_PERSON', response: studioResponses.members,
    params: userIdParam, body: accountsRequests['PATCH /api/workspace/members/:user_id'].body,
    handler: ({ caller, params, body, app }) => {
      const role = membership(app.db, caller.ws, params.user_id);
      if (!role) throw notFound('member not found');
      if (role === 'owner') throw badRequest('the owner role cannot be changed');
      stmt(app.db, 'UPDATE members SET role = ? WHERE workspace_id = ? AND user_id = ?').run(body.role, caller.ws, params.user_id);
      return { members: listMembers(app.db, caller.ws) };
    },
  }),
  studioRoute<{ user_id: number }>({
    method: 'delete', path: '/api/workspace/members/:user_id', auth: 'OWNER_PERSON', params: userIdParam, response: studioResponses.members,
    handler: ({ caller, params, app }) => {
      const role = membership(app.db, caller.ws, params.user_id);
      if (!role) throw notFound('member not found');
      if (role === 'owner') throw badRequest('the owner cannot remove itself');
      stmt(app.db, 'DELETE FROM members WHERE workspace_id = ? AND user_id = ?').run(caller.ws, params.user_id);
      return { members: listMembers(app.db, caller.ws) };
    },
  }),

  // API keys: minted, listed without secrets, revoked; never by an API key
  studioRoute({
    method: 'get', path: '/api/settings/api-keys', auth: 'OWNER_PERSON', response: studioResponses.keys,
    handler: ({ caller, app }) => {
      const rows = stmt(app.db, 'SELECT id, prefix, name, created_at, last_used_at, revoked_at FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id')
        .all(caller.ws) as { id: string; prefix: string; name: string; created_at: string; last_used_at: string | null; revoked_at: string | null }[];
      return { keys: rows.map(({ revoked_at, ...k }) => ({ ...k, prefix: `${API_KEY_LABEL}${k.prefix}`, revoked: revoked_at !== null })) };
    },
  }),
  studioRoute<unknown, unknown, { name: string }>({
    method: 'post', path: '/api/settings/api-keys', auth: 'OWNER_PERSON', response: studioResponses.mintKey,
    body: accountsRequests['POST /api/settings/api-keys'].body,
    handler: ({ caller, body, app }) => {
      const minted = mintApiKey(API_KEY_LABEL);
      const id = `key_${randomBytes(8).toString('hex')}`;
      stmt(app.db, 'INSERT INTO api_keys (id, workspace_id, prefix, name, hash, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(id, caller.ws, minted.prefix, body.name, minted.hash, caller.uid, nowIso());
      return { key: minted.key, id, prefix: `${API_KEY_LABEL}${minted.prefix}` };
    },
  }),
  studioRoute<{ id: string }>({
    method: 'post', path: '/api/settings/api-keys/:id/revoke', auth: 'OWNER_PERSON', params: idParam, response: studioResponses.revokeKey,
    handler: ({ caller, params, app }) => {
      const r = stmt(app.db, 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND workspace_id = ?').run(nowIso(), params.id, caller.ws);
      if (r.changes === 0) throw notFound('api key not found');
      return { ok: true };
    },
  }),
];
