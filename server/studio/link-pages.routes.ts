import type { Response, Router } from 'express';
import { invitePage, LINK_PAGE_SCRIPT_PATH, linkPageScript } from '../core/http/link-pages';
import type { Reply } from '../core/http/route-core';

const send = (res: Response, r: Reply) => void res.status(r.status).set(r.headers).send(r.body);

/**
 * `/invite/<token>`, the page the invitation mail links to: register with the invitation, or sign in and
 * accept it. Server-rendered, Japanese and English; its only script (`/link-page.js`) calls
 * `POST /api/auth/register`, `/api/auth/login` and `/api/workspace/invitations/accept`. These are pages for
 * people, not API routes: they sit beside `/cli/studio.js` outside the JSON route list. (The studio mails no
 * verification links.)
 */
export function mountLinkPages(router: Router): void {
  router.get('/invite/:token', (req, res) => send(res, invitePage({ service: 'studio', token: String(req.params.token) })));
  router.get(LINK_PAGE_SCRIPT_PATH, (_req, res) => send(res, linkPageScript()));
}
