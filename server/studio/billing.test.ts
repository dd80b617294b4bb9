import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CRON, startStudio, type TestStudio } from './testing.testkit';

interface Billing {
  plan: string;
  allowances: Record<string, number | null>;
  usage: Record<string, number>;
  credits: { balance: number };
  passes: { id: string; scope: string; surface: string | null }[];
  enforcement: string;
}

let soft: TestStudio;
let hard: TestStudio;
beforeAll(async () => {
  soft = await startStudio();
  hard = await startStudio({ creditEnforcement: true });
});
afterAll(async () => {
  await soft.close();
  await hard.close();
});

const admin = { 'x-admin-secret': ADMIN };
const image = { model: 'studio/image-v1', prompt: 'a red bicycle' };

describe('GET /api/billing', () => {
  it('a new workspace is on the free plan with balance 0 and the free allowances', async () => {
    const o = await soft.register('fresh@billing.test');
    const b = await soft.call<Billing>('GET', '/api/billing', { auth: o.token });
    expect(b.body).toMatchObject({
      plan: 'free', allowances: { posts: 30, ai_units: 50, accounts: 1 }, usage: { posts: 0, ai_units: 0, accounts: 1 },
      credits: { balance: 0 }, passes: [], enforcement: 'soft',
    });
  });

  it('shows each plan’s allowances; business posts are unlimited', async () => {
    const o = await soft.register('plans@billing.test');
    const expected: Record<string, Record<string, number | null>> = {
      starter: { posts: 200, ai_units: 500, accounts: 3 }, pro: { posts: 1000, ai_units: 1500, accounts: 5 },
      business: { posts: null, ai_units: 3000, accounts: 15 }, free: { posts: 30, ai_units: 50, accounts: 1 },
    };
    for (const [plan, allowances] of Object.entries(expected)) {
      const r = await soft.call<Billing>('POST', '/api/billing/plan', { auth: o.token, body: { plan } });
      expect(r.body.allowances).toEqual(allowances);
    }
    expect((await soft.call('POST', '/api/billing/plan', { auth: o.token, body: { plan: 'platinum' } })).status).toBe(400);
  });
});

describe('plan allowances', () => {
  it('posts: the 30th post of the month is accepted, the 31st is 402 limit_reached; the monthly reset opens the next month', async () => {
    const o = await soft.register('posts@billing.test');
    for (let i = 1; i <= 30; i++) expect((await soft.call('POST', '/api/posts', { auth: o.token, body: { title: `post ${i}`, body: 'x' } })).status).toBe(200);
    const over = await soft.call('POST', '/api/posts', { auth: o.token, body: { title: 'one too many', body: 'x' } });
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({ error: 'limit_reached', kind: 'posts', limit: 30, upgrade: true });
    expect((await soft.call<{ posts: unknown[] }>('GET', '/api/posts', { auth: o.token })).body.posts).toHaveLength(30);
    const reset = await soft.call<{ workspaces: number }>('POST', '/api/cron/monthly-reset', { headers: { 'x-cron-secret': CRON } });
    expect(reset.body.workspaces).toBeGreaterThan(0);
    expect((await soft.call<Billing>('GET', '/api/billing', { auth: o.token })).body.usage.posts).toBe(0);
    expect((await soft.call('POST', '/api/posts', { auth: o.token, body: { title: 'next month', body: 'x' } })).status).toBe(200);
  });

  it('accounts: a free workspace has one seat (its owner); starter allows three members, open invitations included', async () => {
    const o = await soft.register('seats@billing.test');
    const add = (n: number) => soft.call('POST', '/api/workspace/members', { auth: o.token, body: { email: `seat${n}@billing.test`, role: 'viewer' } });
    const refused = await add(1);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ error: 'limit_reached', kind: 'accounts', limit: 1, upgrade: true });
    await soft.call('POST', '/api/billing/plan', { auth: o.token, body: { plan: 'starter' } });
    expect((await add(1)).status).toBe(200);
    expect((await add(2)).status).toBe(200);
    const third = await add(3);
    expect(third.status).toBe(402);
    expect(third.body).toMatchObject({ kind: 'accounts', limit: 3 });
  });

  it('ai_units: 50 generations a month on free, the 51st is 402 limit_reached and charges nothing', async () => {
    const o = await soft.register('units@billing.test');
    const month = (await soft.get<{ month: number }>('SELECT month FROM workspaces WHERE id = ?', o.ws))!.month;
    await soft.run('INSERT INTO usage (workspace_id, month, ai_units) VALUES (?, ?, 49)', o.ws, month);
    expect((await soft.call('POST', '/api/hf/generate', { auth: o.token, body: image })).status).toBe(200);
    const before = (await soft.call<Billing>('GET', '/api/billing', { auth: o.token })).body;
    expect(before.usage.ai_units).toBe(50);
    const over = await soft.call('POST', '/api/hf/generate', { auth: o.token, body: image });
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({ error: 'limit_reached', kind: 'ai_units', limit: 50, upgrade: true });
    expect((await soft.call<Billing>('GET', '/api/billing', { auth: o.token })).body.credits.balance).toBe(before.credits.balance);
  });
});

describe('credits', () => {
  it('soft enforcement charges 12 for an image even below zero and never blocks', async () => {
    const o = await soft.register('softcredits@billing.test');
    const r = await soft.call<{ job: { status: string }; credits: number; charged: number }>('POST', '/api/hf/generate', { auth: o.token, body: image });
    expect(r.status).toBe(200);
    expect(r.body.job.status).toBe('queued');
    expect(r.body.charged).toBe(12);
    expect(r.body.credits).toBe(-12);
  });

  it('hard enforcement refuses with 402 "Not enough credits for this generation." and records no job', async () => {
    const o = await hard.register('hard@billing.test');
    await hard.grant(o.ws, 119);
    const r = await hard.call('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/frontier-video-v1', prompt: 'waves' } });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ error: 'Not enough credits for this generation.', upgrade: true });
    expect(await hard.get('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', o.ws)).toEqual({ n: 0 });
    const quote = await hard.call<{ quote: { price: number; allowed: boolean } }>('POST', '/api/hf/quote', { auth: o.token, body: { model: 'studio/frontier-video-v1', prompt: 'waves' } });
    expect(quote.body.quote).toMatchObject({ price: 120, allowed: false });
    await hard.grant(o.ws, 1);
    const ok = await hard.call<{ credits: number }>('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/frontier-video-v1', prompt: 'waves' } });
    expect(ok.status).toBe(200);
    expect(ok.body.credits).toBe(0);
  });

  it('prices per surface: image 12, video 120, audio 8; an unknown model is 400 and charges nothing', async () => {
    const o = await soft.register('prices@billing.test');
    const price = async (model: string) =>
      (await soft.call<{ quote: { price: number; surface: string } }>('POST', '/api/hf/quote', { auth: o.token, body: { model, prompt: 'p' } })).body.quote;
    expect(await price('studio/image-v1')).toMatchObject({ price: 12, surface: 'image' });
    const ref = await soft.call<{ quote: { price: number } }>('POST', '/api/hf/quote', {
      auth: o.token, body: { model: 'studio/image-reference-v1', prompt: 'p', media: { reference_image: 'https://example.com/a.png' } },
    });
    expect(ref.body.quote.price).toBe(12);
    const noRef = await soft.call('POST', '/api/hf/quote', { auth: o.token, body: { model: 'studio/image-reference-v1', prompt: 'p' } });
    expect(noRef.status).toBe(400);
    expect(await price('studio/frontier-video-v1')).toMatchObject({ price: 120, surface: 'video' });
    expect(await price('studio/audio-clip-v1')).toMatchObject({ price: 8, surface: 'audio' });
    const bad = await soft.call('POST', '/api/hf/generate', { auth: o.token, body: { model: 'nope/model', prompt: 'p' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('unknown model');
    expect((await soft.call<Billing>('GET', '/api/billing', { auth: o.token })).body.credits.balance).toBe(0);
  });

  it('a pass (scope all, model id, or empty + surface) makes the generation free even under hard enforcement', async () => {
    const o = await hard.register('pass@billing.test');
    const pass = (body: Record<string, unknown>) => hard.call('POST', '/api/admin/passes', { headers: admin, body: { workspace_id: o.ws, ...body } });
    expect((await pass({ scope: '' })).status).toBe(400);
    expect((await pass({ scope: '', surface: 'audio' })).status).toBe(200);
    const audio = await hard.call<{ charged: number; credits: number }>('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/audio-clip-v1', prompt: 'jingle' } });
    expect(audio.status).toBe(200);
    expect(audio.body).toMatchObject({ charged: 0, credits: 0 });
    expect((await hard.call('POST', '/api/hf/generate', { auth: o.token, body: image })).status).toBe(402);
    await pass({ scope: 'studio/image-v1' });
    expect((await hard.call('POST', '/api/hf/generate', { auth: o.token, body: image })).status).toBe(200);
    expect((await hard.call('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/frontier-video-v1', prompt: 'v' } })).status).toBe(402);
    await pass({ scope: 'all', expires_at: new Date(Date.now() - 1000).toISOString() });
    expect((await hard.call('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/frontier-video-v1', prompt: 'v' } })).status).toBe(402);
    await pass({ scope: 'all' });
    expect((await hard.call('POST', '/api/hf/generate', { auth: o.token, body: { model: 'studio/frontier-video-v1', prompt: 'v' } })).status).toBe(200);
    const b = (await hard.call<Billing>('GET', '/api/billing', { auth: o.token })).body;
    expect(b.credits.balance).toBe(0);
    expect(b.usage.ai_units).toBe(3);
    expect(b.passes.map((p) => p.scope).sort()).toEqual(['', 'all', 'studio/image-v1']);
  });

  it('the ledger is append-only: entries cannot be changed or deleted, the balance is their sum', async () => {
    const o = await soft.register('ledger@billing.test');
    await soft.grant(o.ws, 50);
    expect(await soft.grant(o.ws, -20)).toBe(30);
    await expect(soft.run('UPDATE credit_ledger SET amount = 1000 WHERE workspace_id = ?', o.ws)).rejects.toThrow(/append-only/);
    await expect(soft.run('DELETE FROM credit_ledger WHERE workspace_id = ?', o.ws)).rejects.toThrow(/append-only/);
    expect((await soft.call<Billing>('GET', '/api/billing', { auth: o.token })).body.credits.balance).toBe(30);
    const sums = await soft.all<{ total: number; balance: number }>(
      'SELECT l.workspace_id, SUM(l.amount) AS total, b.balance FROM credit_ledger l JOIN credit_balances b ON b.workspace_id = l.workspace_id GROUP BY l.workspace_id, b.balance',
    );
    expect(sums.length).toBeGreaterThan(1);
    for (const r of sums) expect(r.balance).toBe(r.total);
    expect((await soft.call('POST', '/api/admin/credits', { headers: admin, body: { workspace_id: 999999, amount: 5 } })).status).toBe(404);
  });
});

describe('POST /api/influencers/analyze', () => {
  it('always hard-checks credits: 402 out_of_credits when short, even with soft enforcement', async () => {
    const o = await soft.register('influencer@billing.test');
    const r = await soft.call('POST', '/api/influencers/analyze', { auth: o.token, body: { handle: '@tokyo_ramen_fan' } });
    expect(r.status).toBe(402);
    expect(r.body.error).toBe('out_of_credits');
    await soft.grant(o.ws, 1);
    const ok = await soft.call<{ analysis: { handle: string; niches: string[] }; credits: number }>('POST', '/api/influencers/analyze', {
      auth: o.token, body: { handle: 'tokyo_ramen_fan', url: 'https://www.instagram.com/tokyo_ramen_fan' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.analysis).toMatchObject({ handle: '@tokyo_ramen_fan', platform: 'instagram' });
    expect(ok.body.analysis.niches).toContain('food');
    expect(ok.body.credits).toBe(0);
    expect((await soft.call('POST', '/api/influencers/analyze', { auth: o.token, body: { handle: 'again' } })).body.error).toBe('out_of_credits');
  });
});
