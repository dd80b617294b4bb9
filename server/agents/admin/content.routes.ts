import { contentSchema } from '../../../shared/api/contracts/agents-values';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { presentTicket, thread, type TicketRow } from '../support/support.service';
import { audit, paging } from './guard';
import { DEFAULT_SETTINGS, platformBundles, platformSettings, writeKey } from '../platform-settings';
import { BUILT_IN_BUNDLES } from '../billing/catalog';
import { contentPages, pageContent } from '../public/content';
import { contentResponses } from '../../../shared/api/contracts/agents-admin';
import { contentRequests, pageParam } from '../../../shared/api/contracts/agents-admin-requests';

/** Operator routes: landing-page content, platform settings, credit bundles, support tickets. */
export function adminContentRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  const page = async (p: string) => {
    const c = await pageContent(ctx, p);
    if (!c) throw notFound('page not found');
    return { page: p, ...c };
  };
  const bundles = () => {
    const saved = platformBundles(ctx.legacyDb);
    return { bundles: saved ?? BUILT_IN_BUNDLES, overridden: saved !== null };
  };
  return [
    route({ ...admin, method: 'get', path: '/api/admin/content', response: contentResponses['GET /api/admin/content'], handler: async () => ({ pages: await Promise.all((await contentPages(ctx)).map(page)) }) }),
    route({ ...admin, method: 'get', path: '/api/admin/content/:page', response: contentResponses['PUT /api/admin/content/:page'], params: pageParam, handler: async ({ params }) => await page(params.page) }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/content/:page', response: contentResponses['PUT /api/admin/content/:page'],
      params: pageParam,
      body: contentSchema,
      handler: async ({ caller, params, body }) => {
        ctx.legacyDb
          .prepare('INSERT INTO content_pages (page, data, updated_at, updated_by) VALUES (?, ?, ?, ?) ON CONFLICT (page) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at, updated_by = excluded.updated_by')
          .run(params.page, JSON.stringify(body), Date.now(), caller.userId);
        audit(ctx, caller, 'content.put', 'content', params.page);
        return await page(params.page);
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/content/:page/reset', response: contentResponses['POST /api/admin/content/:page/reset'],
      params: pageParam,
      handler: async ({ caller, params }) => {
        const removed = ctx.legacyDb.prepare('DELETE FROM content_pages WHERE page = ?').run(params.page).changes;
        if (!removed && !(await pageContent(ctx, params.page))) throw notFound('page not found');
        audit(ctx, caller, 'content.reset', 'content', params.page);
        const after = await pageContent(ctx, params.page);
        return after ? { page: params.page, ...after } : { page: params.page, removed: true };
      },
    }),
    route({ ...admin, method: 'get', path: '/api/admin/settings', response: contentResponses['GET /api/admin/settings'], handler: () => ({ settings: platformSettings(ctx.legacyDb), defaults: DEFAULT_SETTINGS }) }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/settings', response: contentResponses['PUT /api/admin/settings'],
      body: contentRequests['PUT /api/admin/settings'].body,
      handler: ({ caller, body }) => {
        const next = { ...platformSettings(ctx.legacyDb), ...body };
        writeKey(ctx.legacyDb, 'settings', next, caller.userId);
        audit(ctx, caller, 'settings.put', 'settings', 'platform', body);
        return { settings: next };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/settings/reset', response: contentResponses['POST /api/admin/settings/reset'],
      handler: ({ caller }) => {
        ctx.legacyDb.prepare("DELETE FROM platform_settings WHERE key = 'settings'").run();
        audit(ctx, caller, 'settings.reset', 'settings', 'platform');
        return { settings: platformSettings(ctx.legacyDb) };
      },
    }),
    route({ ...admin, method: 'get', path: '/api/admin/bundles', response: contentResponses['GET /api/admin/bundles'], handler: bundles }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/bundles', response: contentResponses['PUT /api/admin/bundles'],
      body: contentRequests['PUT /api/admin/bundles'].body,
      handler: ({ caller, body }) => {
        const ids = body.bundles.map((b) => b.id);
        if (new Set(ids).size !== ids.length) throw badRequest('bundles: ids must be unique');
        writeKey(ctx.legacyDb, 'bundles', body.bundles, caller.userId);
        audit(ctx, caller, 'bundles.put', 'settings', 'bundles', { ids });
        return bundles();
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/bundles/reset', response: contentResponses['POST /api/admin/bundles/reset'],
      handler: ({ caller }) => {
        ctx.legacyDb.prepare("DELETE FROM platform_settings WHERE key = 'bundles'").run();
        audit(ctx, caller, 'bundles.reset', 'settings', 'bundles');
        return bundles();
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/tickets', response: contentResponses['GET /api/admin/tickets'],
      query: contentRequests['GET /api/admin/tickets'].query,
      handler: ({ query }) => {
        const { limit, page: p, offset } = paging(query);
        const where = query.status ? 'WHERE t.status = ?' : '';
        const args = query.status ? [query.status] : [];
        const total = (ctx.legacyDb.prepare(`SELECT COUNT(*) AS n FROM support_tickets t ${where}`).get(...args) as { n: number }).n;
        const rows = ctx.legacyDb
          .prepare(
            `SELECT t.*, u.email, (SELECT COUNT(*) FROM support_messages m WHERE m.ticket_id = t.id) AS message_count FROM support_tickets t LEFT JOIN users u ON u.id = t.user_id ${where}
              ORDER BY CASE t.status WHEN 'open' THEN 0 WHEN 'pending' THEN 1 WHEN 'answered' THEN 2 ELSE 3 END,
                       CASE t.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END, t.updated_at DESC LIMIT ? OFFSET ?`,
          )
          .all(...args, limit, offset) as (TicketRow & { email: string; message_count: number })[];
        return { tickets: rows.map(presentTicket), total, page: p, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/tickets/:id', response: contentResponses['GET /api/admin/tickets/:id'],
      params: contentRequests['GET /api/admin/tickets/:id'].params,
      handler: ({ params }) => {
        const t = ctx.legacyDb.prepare('SELECT * FROM support_tickets WHERE id = ?').get(params.id) as TicketRow | undefined;
        if (!t) throw notFound('ticket not found');
        return thread(ctx, t);
      },
    }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/tickets/:id', response: contentResponses['PATCH /api/admin/tickets/:id'],
      params: contentRequests['PATCH /api/admin/tickets/:id'].params,
      body: contentRequests['PATCH /api/admin/tickets/:id'].body,
      handler: ({ caller, params, body }) => {
        const t = ctx.legacyDb.prepare('SELECT * FROM support_tickets WHERE id = ?').get(params.id) as TicketRow | undefined;
        if (!t) throw notFound('ticket not found');
        ctx.legacyDb.prepare('UPDATE support_tickets SET status = ?, priority = ?, category = ?, updated_at = ? WHERE id = ?').run(body.status ?? t.status, body.priority ?? t.priority, body.category ?? t.category, Date.now(), t.id);
        audit(ctx, caller, 'ticket.update', 'ticket', t.id, body);
        return thread(ctx, ctx.legacyDb.prepare('SELECT * FROM support_tickets WHERE id = ?').get(t.id) as TicketRow);
      },
    }),
  ];
}
