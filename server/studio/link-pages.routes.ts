import { invitePage, LINK_PAGE_SCRIPT_PATH, linkPageScript } from '../core/http/link-pages';
import { studioRoute, type StudioRoute } from './route';

/**
 * `/invite/<token>`, the page the invitation mail links to: register with the invitation, or sign in and
 * accept it. Server-rendered, Japanese and English; its only script calls `POST /api/auth/register`,
 * `/api/auth/login` and `/api/workspace/invitations/accept`. (The studio mails no verification links.)
 */
export const linkPageRoutes: StudioRoute[] = [
  studioRoute({
    method: 'get', path: '/invite/:token', auth: 'PUBLIC', produces: 'text/html',
    handler: ({ req }) => invitePage({ service: 'studio', token: typeof req.params.token === 'string' ? req.params.token : '' }),
  }),
  studioRoute({
    method: 'get', path: LINK_PAGE_SCRIPT_PATH, auth: 'PUBLIC', produces: 'application/javascript',
    handler: () => linkPageScript(),
  }),
];
