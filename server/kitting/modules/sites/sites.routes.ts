import { clip } from '../../../../shared/fields';
import { defineRoute, Reply } from '../../http/define-route';
import { badRequest, conflict, forbidden, notFound, tooLarge } from '../../../core/errors';
import { indexSite, MAX_SITES, PUBLISH_PER_WINDOW, PUBLISH_WINDOW_MS, siteIndex } from './site-index';
import { P, PLATFORM_WS } from '../platform-collections';
import type { Doc } from '../../store/types';
import { hitStoredLimit } from '../../security/limits';
import { MAX_SITE_HTML, SITE_SLUG as SLUG, siteRequests, siteResponses } from '../../../../shared/api/contracts/public';

/**
 * Published pages are user HTML: the sandbox CSP gives them an opaque origin with no
 * scripts, so they cannot read cookies or call the app's API as the visitor.
 */
const SITE_CSP = "sandbox allow-forms allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src data: https:; style-src 'unsafe-inline' https:; font-src data: https:; media-src https:; form-action https:; base-uri 'none'; frame-ancestors 'none'";

const html = (status: number, body: string) =>
  new Reply(status, body, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': SITE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  });

const NOT_FOUND_PAGE = '<!doctype html><html lang="ja"><meta charset="utf-8"><title>ページが見つかりません</title><body style="font-family:sans-serif;padding:3em;text-align:center"><h1>404</h1><p>お探しのページは公開されていないか、削除されました。</p></body></html>';

export const siteRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/site/publish',
    response: siteResponses.publish,
    auth: 'sales:edit',
    body: siteRequests.publish,
    handler: async ({ app, ws, body }) => {
      const slug = typeof body.slug === 'string' ? body.slug.trim() : '';
      if (!SLUG.test(slug)) throw badRequest('invalid slug', { message: 'スラッグは英小文字・数字・ハイフン（40文字以内）です' });
      const page = typeof body.html === 'string' ? body.html : '';
      if (!page.trim()) throw badRequest('html required');
      if (Buffer.byteLength(page) > MAX_SITE_HTML) throw tooLarge('html too large', { limit: MAX_SITE_HTML, message: `ページは${MAX_SITE_HTML / 1000}KB以内にしてください` });
      await hitStoredLimit(app, `publish:${ws}`, PUBLISH_PER_WINDOW, PUBLISH_WINDOW_MS, 'too many publishes');
      const name = typeof body.name === 'string' ? clip(body.name.trim(), 120) : '';
      await app.store.transact(PLATFORM_WS, async (tx) => {
        const cur = await tx.get<Doc>(P.sites, slug);
        if (cur && cur.tenant !== ws) throw conflict('slug taken', { message: 'このスラッグは使用されています' });
        const mine = await siteIndex(tx, ws);
        if (!cur && mine.length >= MAX_SITES) throw forbidden('site_limit', { limit: MAX_SITES, message: `公開できるサイトは${MAX_SITES}件までです` });
        const updated = Date.now();
        await tx.put(P.sites, slug, { slug, name: name || slug, html: page, tenant: ws, updated, live: true });
        await indexSite(tx, ws, { slug, name: name || slug, updated }, slug);
      });
      return { slug, url: `/site/${slug}` };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/site/list',
    response: siteResponses.list,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({
      sites: (await siteIndex({ get: (c, id) => app.store.get(PLATFORM_WS, c, id) }, ws)).map((s) => ({ ...s, url: `/site/${s.slug}` })),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/site/:slug/unpublish',
    response: siteResponses.unpublish,
    auth: 'sales:edit',
    params: siteRequests.unpublishParams,
    handler: async ({ app, ws, params }) => {
      await app.store.transact(PLATFORM_WS, async (tx) => {
        const cur = await tx.get<Doc>(P.sites, params.slug);
        if (!cur || cur.tenant !== ws) throw notFound('site not found');
        await tx.remove(P.sites, params.slug);
        await indexSite(tx, ws, null, params.slug);
      });
      return {};
    },
  }),
  defineRoute({
    method: 'get',
    path: '/site/:slug',
    produces: 'text/html',
    auth: 'public',
    workspace: false,
    params: siteRequests.pageParams,
    handler: async ({ app, params }) => {
      const s = SLUG.test(params.slug) ? await app.store.get<Doc>(PLATFORM_WS, P.sites, params.slug) : null;
      return s && s.live !== false ? html(200, String(s.html)) : html(404, NOT_FOUND_PAGE);
    },
  }),
];
