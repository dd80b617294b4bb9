import { randomBytes } from 'node:crypto';
import { notFound } from '../core/errors';
import {
  ANALYZE_COST, balanceOf, billingState, checkAllowance, createPass, ledgerEntry, meter, outOfCredits, startNextMonth,
  type Surface,
} from './billing';
import { analyzeInfluencer } from './influencers';
import { nowIso, stmt } from './db';
import { studioRoute } from './route';
import { studioResponses, type PlanName } from '../../shared/api/contracts/studio';
import { billingRequests } from '../../shared/api/contracts/studio-requests';
function requireWorkspace(db: import('./db').StudioDb, ws: number): void {
  if (!stmt(db, 'SELECT 1 FROM workspaces WHERE id = ?').get(ws)) throw notFound('workspace not found');
}

export const billingRoutes = [
  studioRoute({
    method: 'get', path: '/api/billing', auth: 'AUTH', response: studioResponses.billing,
    handler: ({ caller, app }) => billingState(app, caller.ws),
  }),
  studioRoute<unknown, unknown, { plan: PlanName }>({
    method: 'post', path: '/api/billing/plan', auth: 'OWNER_PERSON', response: studioResponses.billing,
    body: billingRequests['POST /api/billing/plan'].body,
    handler: ({ caller, body, app }) => {
      stmt(app.db, 'UPDATE workspaces SET plan = ? WHERE id = ?').run(body.plan, caller.ws);
      return billingState(app, caller.ws);
    },
  }),

  // Posts
  studioRoute({
    method: 'get', path: '/api/posts', auth: 'AUTH', response: studioResponses.posts,
    handler: ({ caller, app }) => ({
      posts: stmt(app.db, 'SELECT id, title, body, scheduled_at, created_by, created_at FROM posts WHERE workspace_id = ? ORDER BY created_at DESC, id DESC')
        .all(caller.ws),
    }),
  }),
  studioRoute<unknown, unknown, { title: string; body: string; scheduled_at?: string }>({
    method: 'post', path: '/api/posts', auth: 'WRITE', response: studioResponses.post,
    body: billingRequests['POST /api/posts'].body,
    handler: ({ caller, body, app }) => {
      const post = {
        id: `post_${randomBytes(8).toString('hex')}`, title: body.title, body: body.body, scheduled_at: body.scheduled_at ?? null,
        created_by: caller.actor, created_at: nowIso(),
      };
      app.db.transaction(() => {
        checkAllowance(app.db, caller.ws, 'posts');
        stmt(app.db, 'INSERT INTO posts (id, workspace_id, title, body, scheduled_at, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(post.id, caller.ws, post.title, post.body, post.scheduled_at, post.created_by, post.created_at);
        meter(app.db, caller.ws, 'posts');
      })();
      return { post };
    },
  }),

  // Influencer analysis: credits are always hard-checked here
  studioRoute<unknown, unknown, { handle: string; platform?: string; url?: string }>({
    method: 'post', path: '/api/influencers/analyze', auth: 'WRITE', response: studioResponses.analyze,
    body: billingRequests['POST /api/influencers/analyze'].body,
    handler: ({ caller, body, app }) => {
      const balance = app.db.transaction(() => {
        if (balanceOf(app.db, caller.ws) < ANALYZE_COST) throw outOfCredits();
        checkAllowance(app.db, caller.ws, 'ai_units');
        ledgerEntry(app.db, caller.ws, -ANALYZE_COST, 'analyze', null, body.handle);
        meter(app.db, caller.ws, 'ai_units');
        return balanceOf(app.db, caller.ws);
      })();
      return { analysis: analyzeInfluencer(body), charged: ANALYZE_COST, credits: balance };
    },
  }),

  // Operator routes
  studioRoute<unknown, unknown, { workspace_id: number; amount: number; note?: string }>({
    method: 'post', path: '/api/admin/credits', auth: 'ADMIN', response: studioResponses.credits,
    body: billingRequests['POST /api/admin/credits'].body,
    handler: ({ body, app }) => {
      requireWorkspace(app.db, body.workspace_id);
      ledgerEntry(app.db, body.workspace_id, body.amount, 'grant', null, body.note ?? null);
      return { balance: balanceOf(app.db, body.workspace_id) };
    },
  }),
  studioRoute<unknown, unknown, { workspace_id: number; scope: string; surface?: Surface; expires_at?: string }>({
    method: 'post', path: '/api/admin/passes', auth: 'ADMIN', response: studioResponses.pass,
    body: billingRequests['POST /api/admin/passes'].body,
    handler: ({ body, app }) => {
      requireWorkspace(app.db, body.workspace_id);
      const expires = body.expires_at ? new Date(body.expires_at).toISOString() : null;
      return { pass: createPass(app.db, body.workspace_id, body.scope, body.surface ?? null, expires) };
    },
  }),
  studioRoute<unknown, unknown, { user_id: number; suspended: boolean }>({
    method: 'post', path: '/api/admin/suspend', auth: 'ADMIN', response: studioResponses.suspend,
    body: billingRequests['POST /api/admin/suspend'].body,
    handler: ({ body, app }) => {
      const r = stmt(app.db, 'UPDATE users SET suspended = ? WHERE id = ?').run(body.suspended ? 1 : 0, body.user_id);
      if (r.changes === 0) throw notFound('user not found');
      return { user_id: body.user_id, suspended: body.suspended };
    },
  }),
  studioRoute({
    method: 'post', path: '/api/cron/monthly-reset', auth: 'CRON', response: studioResponses.monthlyReset,
    handler: ({ app }) => ({ workspaces: startNextMonth(app.db) }),
  }),
];
