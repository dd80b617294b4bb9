import { contentSchema } from '../../../shared/api/contracts/agents-values';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { audit, paging } from './guard';
import { DEFAULT_SETTINGS } from '../platform-settings';
import { allPages, bundles, page, putPage, resetPage, resetSetting, saveBundles, saveSettings, settings } from './content.service';
import { editTicket, ticketQueue, ticketThread } from './tickets.service';
import { contentResponses } from '../../../shared/api/contracts/agents-admin';
import { contentRequests, pageParam } from '../../../shared/api/contracts/agents-admin-requests';

/** Operator routes: landing-page content, platform settings, credit bundles, support tickets. */
export function adminContentRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  return [
    route({ ...admin, method: 'get', path: '/api/admin/content', response: contentResponses['GET /api/admin/content'], handler: async () => ({ pages: await allPages(ctx) }) }),
    route({ ...admin, method: 'get', path: '/api/admin/content/:page', response: contentResponses['PUT /api/admin/content/:page'], params: pageParam, handler: ({ params }) => page(ctx, params.page) }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/content/:page', response: contentResponses['PUT /api/admin/content/:page'],
      params: pageParam,
      body: contentSchema,
      handler: async ({ caller, params, body }) => {
        await putPage(ctx, params.page, body, caller.userId);
        await audit(ctx, caller, 'content.put', 'content', params.page);
        return page(ctx, params.page);
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/content/:page/reset', response: contentResponses['POST /api/admin/content/:page/reset'],
      params: pageParam,
      handler: async ({ caller, params }) => {
        const after = await resetPage(ctx, params.page);
        await audit(ctx, caller, 'content.reset', 'content', params.page);
        return after;
      },
    }),
    route({ ...admin, method: 'get', path: '/api/admin/settings', response: contentResponses['GET /api/admin/settings'], handler: async () => ({ settings: await settings(ctx), defaults: DEFAULT_SETTINGS }) }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/settings', response: contentResponses['PUT /api/admin/settings'],
      body: contentRequests['PUT /api/admin/settings'].body,
      handler: async ({ caller, body }) => {
        const next = { ...(await settings(ctx)), ...body };
        await saveSettings(ctx, next, caller.userId);
        await audit(ctx, caller, 'settings.put', 'settings', 'platform', body);
        return { settings: next };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/settings/reset', response: contentResponses['POST /api/admin/settings/reset'],
      handler: async ({ caller }) => {
        await resetSetting(ctx, 'settings');
        await audit(ctx, caller, 'settings.reset', 'settings', 'platform');
        return { settings: await settings(ctx) };
      },
    }),
    route({ ...admin, method: 'get', path: '/api/admin/bundles', response: contentResponses['GET /api/admin/bundles'], handler: () => bundles(ctx) }),
    route({
      ...admin,
      method: 'put',
      path: '/api/admin/bundles', response: contentResponses['PUT /api/admin/bundles'],
      body: contentRequests['PUT /api/admin/bundles'].body,
      handler: async ({ caller, body }) => {
        const ids = await saveBundles(ctx, body.bundles, caller.userId);
        await audit(ctx, caller, 'bundles.put', 'settings', 'bundles', { ids });
        return bundles(ctx);
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/bundles/reset', response: contentResponses['POST /api/admin/bundles/reset'],
      handler: async ({ caller }) => {
        await resetSetting(ctx, 'bundles');
        await audit(ctx, caller, 'bundles.reset', 'settings', 'bundles');
        return bundles(ctx);
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/tickets', response: contentResponses['GET /api/admin/tickets'],
      query: contentRequests['GET /api/admin/tickets'].query,
      handler: async ({ query }) => {
        const { limit, page: p, offset } = paging(query);
        const { tickets, total } = await ticketQueue(ctx, query.status, limit, offset);
        return { tickets, total, page: p, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/tickets/:id', response: contentResponses['GET /api/admin/tickets/:id'],
      params: contentRequests['GET /api/admin/tickets/:id'].params,
      handler: ({ params }) => ticketThread(ctx, params.id),
    }),
    route({
      ...admin,
      method: 'patch',
      path: '/api/admin/tickets/:id', response: contentResponses['PATCH /api/admin/tickets/:id'],
      params: contentRequests['PATCH /api/admin/tickets/:id'].params,
      body: contentRequests['PATCH /api/admin/tickets/:id'].body,
      handler: async ({ caller, params, body }) => {
        const out = await editTicket(ctx, params.id, body);
        await audit(ctx, caller, 'ticket.update', 'ticket', params.id, body);
        return out;
      },
    }),
  ];
}
