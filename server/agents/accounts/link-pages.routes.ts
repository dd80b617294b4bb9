import { invitePage, LINK_PAGE_SCRIPT_PATH, linkPageScript, verifyPage } from '../../core/http/link-pages';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';

const one = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The pages the mailed links open: `/invite/<token>` (register with the invitation, or sign in and accept
 * it) and `/verify-email?token=` (confirm the address). Server-rendered, Japanese and English; the page's
 * only script calls `POST /api/auth/register`, `/api/auth/login`, `/api/workspace/invitations/accept` and
 * `/api/auth/verify`, so a token is used only when the person presses a button.
 */
export function linkPageRoutes(_ctx: AgentsContext): AgentRoute[] {
  return [
    route({
      method: 'get',
      path: '/invite/:token', produces: 'text/html',
      auth: 'public',
      handler: ({ req }) => invitePage({ service: 'agents', token: one(req.params.token) }),
    }),
    route({
      method: 'get',
      path: '/verify-email', produces: 'text/html',
      auth: 'public',
      handler: ({ req }) => verifyPage({ token: one(req.query.token) }),
    }),
    route({
      method: 'get',
      path: LINK_PAGE_SCRIPT_PATH, produces: 'application/javascript',
      auth: 'public',
      handler: () => linkPageScript(),
    }),
  ];
}
