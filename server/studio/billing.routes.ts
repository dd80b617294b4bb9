import { notFound } from '../core/errors';
import { billingState, changePlan, createPass, grantCredits, requireWorkspace, startNextMonth, type Surface } from './billing';
import { chargedAnalysis } from './influencers';
import { createPost, postsOf } from './posts';
import { suspendUser } from './accounts';
import { studioRoute } from './route';
import { studioResponses, type PlanName } from '../../shared/api/contracts/studio';
import { billingRequests } from '../../shared/api/contracts/studio-requests';

export const billingRoutes = [
  studioRoute({
    method: 'get', path: '/api/billing', auth: 'AUTH', response: studioResponses.billing,
    handler: ({ caller, app }) => billingState(app, caller.ws),
  }),
  studioRoute<unknown, unknown, { plan: PlanName }>({
    method: 'post', path: '/api/billing/plan', auth: 'OWNER_PERSON', response: studioResponses.billing,
    body: billingRequests['POST /api/billing/plan'].body,
    handler: ({ caller, body, app }) => changePlan(app, caller.ws, body.plan),
  }),

  // Posts
  studioRoute({
    method: 'get', path: '/api/posts', auth: 'AUTH', response: studioResponses.posts,
    handler: async ({ caller, app }) => ({ posts: await postsOf(app, caller.ws) }),
  }),
  studioRoute<unknown, unknown, { title: string; body: string; scheduled_at?: string }>({
    method: 'post', path: '/api/posts', auth: 'WRITE', response: studioResponses.post,
    body: billingRequests['POST /api/posts'].body,
    handler: async ({ caller, body, app }) => ({ post: await createPost(app, caller, body) }),
  }),

  // Influencer analysis: credits are always hard-checked here
  studioRoute<unknown, unknown, { handle: string; platform?: string; url?: string }>({
    method: 'post', path: '/api/influencers/analyze', auth: 'WRITE', response: studioResponses.analyze,
    body: billingRequests['POST /api/influencers/analyze'].body,
    handler: ({ caller, body, app }) => chargedAnalysis(app, caller.ws, body),
  }),

  // Operator routes
  studioRoute<unknown, unknown, { workspace_id: number; amount: number; note?: string }>({
    method: 'post', path: '/api/admin/credits', auth: 'ADMIN', response: studioResponses.credits,
    body: billingRequests['POST /api/admin/credits'].body,
    handler: async ({ body, app }) => {
      return { balance: await grantCredits(app.db, body.workspace_id, body.amount, body.note ?? null) };
    },
  }),
  studioRoute<unknown, unknown, { workspace_id: number; scope: string; surface?: Surface; expires_at?: string }>({
    method: 'post', path: '/api/admin/passes', auth: 'ADMIN', response: studioResponses.pass,
    body: billingRequests['POST /api/admin/passes'].body,
    handler: async ({ body, app }) => {
      await requireWorkspace(app.db, body.workspace_id);
      const expires = body.expires_at ? new Date(body.expires_at).toISOString() : null;
      return { pass: await createPass(app.db, body.workspace_id, body.scope, body.surface ?? null, expires) };
    },
  }),
  studioRoute<unknown, unknown, { user_id: number; suspended: boolean }>({
    method: 'post', path: '/api/admin/suspend', auth: 'ADMIN', response: studioResponses.suspend,
    body: billingRequests['POST /api/admin/suspend'].body,
    handler: async ({ body, app }) => {
      if (!(await suspendUser(app.db, body.user_id, body.suspended))) throw notFound('user not found');
      return { user_id: body.user_id, suspended: body.suspended };
    },
  }),
  studioRoute({
    method: 'post', path: '/api/cron/monthly-reset', auth: 'CRON', response: studioResponses.monthlyReset,
    handler: async ({ app }) => ({ workspaces: await startNextMonth(app.db) }),
  }),
];
