/** Attack on plan tiers (issue 25, item 6): a free workspace raises itself to a paid tier without paying. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { operator, whoami } from './team.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

describe('paid tier without paying', () => {
  it('a free workspace cannot raise its tier: 402 with nothing changed', async () => {
    const owner = await t.signup();
    const r = await owner.patch('/api/workspace/general', { name: 'Free ride', tier: 'business' });
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ error: 'subscription required', tier: 'business', paidTier: 'free', subscription: 'none' });
    const w = (await owner.get('/api/workspace/general')).body.workspace;
    expect(w).toMatchObject({ tier: 'free', seats: { limit: 2 } });
    expect(w.name).not.toBe('Free ride');
    expect((await owner.get('/api/billing/subscription')).body.subscription).toMatchObject({ status: 'none', tier: 'free' });
  });

  it('a subscription allows its own tier and below, not above; renames and downgrades stay open', async () => {
    const owner = await t.signup();
    const { ws } = await whoami(owner);
    await owner.get('/api/billing/subscription');
    await t.ctx.db.updateTable('subscriptions').set({ status: 'active', plan: 'starter' }).where('workspace_id', '=', ws).execute();
    expect((await owner.patch('/api/workspace/general', { tier: 'pro' })).status).toBe(402);
    expect((await owner.patch('/api/workspace/general', { tier: 'starter' })).body.workspace).toMatchObject({ tier: 'starter' });
    expect((await owner.patch('/api/workspace/general', { name: 'Renamed' })).body.workspace).toMatchObject({ name: 'Renamed', tier: 'starter' });
    expect((await owner.patch('/api/workspace/general', { tier: 'free' })).body.workspace).toMatchObject({ tier: 'free' });
    // a cancelled subscription pays for nothing any more
    await t.ctx.db.updateTable('subscriptions').set({ status: 'cancelled' }).where('workspace_id', '=', ws).execute();
    expect((await owner.patch('/api/workspace/general', { tier: 'starter' })).status).toBe(402);
  });

  it('an operator can still set any tier through /api/admin/workspaces', async () => {
    const owner = await t.signup();
    const { ws } = await whoami(owner);
    const op = await operator(t);
    const r = await op.api.patch(`/api/admin/workspaces/${ws}`, { tier: 'business' });
    expect(r.status).toBe(200);
    expect(str(r.body.workspace.tier)).toBe('business');
    expect((await owner.get('/api/workspace/general')).body.workspace).toMatchObject({ tier: 'business', seats: { limit: 50 } });
    // the owner may keep it or step down, but the raise was the operator's
    expect((await owner.patch('/api/workspace/general', { tier: 'business' })).status).toBe(200);
  });
});
