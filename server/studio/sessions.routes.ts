import { badRequest, forbidden } from '../core/errors';
import { hashPassword, verifyPassword } from '../core/security/passwords';
import { endSession } from '../core/security/db-sessions';
import { mintSession } from './auth';
import type { Caller } from './context';
import { accountOf, replacePassword } from './accounts';
import { acceptInvitation } from './invitations';
import { studioRoute } from './route';
import { studioResponses } from '../../shared/api/contracts/studio';
import { accountsRequests } from '../../shared/api/contracts/studio-requests';

/** A signed-in person (a session token), not an API key, the legacy token or demo mode. */
function person(caller: Caller): { uid: number; sid: string } {
  if (caller.uid === null || !caller.sid) throw forbidden('session required', { message: 'Sign in with your account; API keys cannot do this.' });
  return { uid: caller.uid, sid: caller.sid };
}

/** Sessions that end (logout, password change) and invitations accepted by a signed-in account. */
export const sessionRoutes = [
  studioRoute({
    method: 'post', path: '/api/auth/logout', auth: 'AUTH', response: studioResponses.logout,
    handler: async ({ caller, app }) => {
      // The token's session ends: the same token answers 401 from the next request on.
      await endSession(app.db, person(caller).sid);
      return {};
    },
  }),
  studioRoute<unknown, unknown, { current_password: string; password: string }>({
    method: 'post', path: '/api/auth/password', auth: 'AUTH', response: studioResponses.login,
    body: accountsRequests['POST /api/auth/password'].body,
    handler: async ({ caller, body, app }) => {
      const { uid } = person(caller);
      const u = await accountOf(app.db, uid);
      if (!(await verifyPassword(body.current_password, u.password_hash))) throw badRequest('current password is wrong');
      const hash = await hashPassword(body.password);
      // Every session of the account ends (the version moves on); this request gets a new one.
      await replacePassword(app.db, uid, hash);
      return { token: await mintSession(app, uid, caller.ws, u.email), workspace_id: caller.ws };
    },
  }),
  studioRoute<unknown, unknown, { token: string }>({
    method: 'post', path: '/api/workspace/invitations/accept', auth: 'AUTH', response: studioResponses.login,
    body: accountsRequests['POST /api/workspace/invitations/accept'].body,
    handler: async ({ caller, body, app }) => {
      const { uid } = person(caller);
      const joined = await acceptInvitation(app.db, uid, body.token);
      const { email } = await accountOf(app.db, uid);
      // A session token names one workspace: the answer carries one for the workspace joined.
      return { token: await mintSession(app, uid, joined.ws, email), workspace_id: joined.ws };
    },
  }),
];
