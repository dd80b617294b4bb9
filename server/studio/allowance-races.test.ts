import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startStudio, type TestStudio } from './testing.testkit';

/**
 * The last unit of a monthly allowance asked for by several requests at the same instant (on PostgreSQL they
 * run side by side on the pool, each reading usage = limit - 1): exactly one gets it, the others are 402
 * limit_reached and leave nothing behind (no job, no charge, no ledger entry, no usage).
 */
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

const N = 8;
const image = { model: 'studio/image-v1', prompt: 'the last unit' };
const admin = { 'x-admin-secret': ADMIN };

async function atUsage(s: TestStudio, ws: number, column: 'ai_units' | 'posts', n: number): Promise<void> {
  const month = (await s.get<{ month: number }>('SELECT month FROM workspaces WHERE id = ?', ws))!.month;
  await s.run(`INSERT INTO usage (workspace_id, month, ${column}) VALUES (?, ?, ?)`, ws, month, n);
}

async function state(s: TestStudio, ws: number, token: string) {
  const billing = (await s.call<{ usage: Record<string, number>; credits: { balance: number } }>('GET', '/api/billing', { auth: token })).body;
  const count = async (sql: string) => Number((await s.get<{ n: number }>(sql, ws))!.n);
  return {
    usage: billing.usage, balance: billing.credits.balance,
    jobs: await count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?'),
    charges: await count("SELECT COUNT(*) AS n FROM credit_ledger WHERE workspace_id = ? AND amount < 0"),
    posts: await count('SELECT COUNT(*) AS n FROM posts WHERE workspace_id = ?'),
  };
}

function expectOneThrough(answers: { status: number; body: Record<string, unknown> }[], kind: string, limit: number): void {
  expect(answers.filter((r) => r.status !== 200 && r.status !== 402).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
  expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of answers.filter((a) => a.status === 402)) expect(r.body).toMatchObject({ error: 'limit_reached', kind, limit, upgrade: true });
}

describe('the last unit of the month, asked for at once', () => {
  it('ai_units, soft enforcement: eight generations at 49/50 on free, one job, one charge of 12, usage 50', async () => {
    const o = await soft.register('last-unit-soft@allowance.test');
    await atUsage(soft, o.ws, 'ai_units', 49);
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => soft.call('POST', '/api/hf/generate', { auth: o.token, body: { ...image, prompt: `soft ${i}` } })));
    expectOneThrough(answers, 'ai_units', 50);
    expect(await state(soft, o.ws, o.token)).toMatchObject({ usage: { ai_units: 50 }, balance: -12, jobs: 1, charges: 1 });
  });

  it('ai_units, hard enforcement: eight generations at 49/50 with 100 credits, one job, 88 credits left, usage 50', async () => {
    const o = await hard.register('last-unit-hard@allowance.test');
    await hard.grant(o.ws, 100);
    await atUsage(hard, o.ws, 'ai_units', 49);
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => hard.call('POST', '/api/hf/generate', { auth: o.token, body: { ...image, prompt: `hard ${i}` } })));
    expectOneThrough(answers, 'ai_units', 50);
    expect(await state(hard, o.ws, o.token)).toMatchObject({ usage: { ai_units: 50 }, balance: 88, jobs: 1, charges: 1 });
  });

  it('ai_units, generations a pass covers: one free job, usage 50', async () => {
    const o = await hard.register('last-unit-pass@allowance.test');
    expect((await hard.call('POST', '/api/admin/passes', { headers: admin, body: { workspace_id: o.ws, scope: 'all' } })).status).toBe(200);
    await atUsage(hard, o.ws, 'ai_units', 49);
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => hard.call('POST', '/api/hf/generate', { auth: o.token, body: { ...image, prompt: `pass ${i}` } })));
    expectOneThrough(answers, 'ai_units', 50);
    expect(await state(hard, o.ws, o.token)).toMatchObject({ usage: { ai_units: 50 }, balance: 0, jobs: 1, charges: 0 });
  });

  it('hard enforcement without the credits: every generation refused, the unit it would have metered not kept', async () => {
    const o = await hard.register('last-unit-broke@allowance.test');
    await atUsage(hard, o.ws, 'ai_units', 49);
    const answers = await Promise.all(Array.from({ length: N }, () => hard.call('POST', '/api/hf/generate', { auth: o.token, body: image })));
    expect(answers.map((r) => r.status)).toEqual(Array(N).fill(402));
    expect(await state(hard, o.ws, o.token)).toMatchObject({ usage: { ai_units: 49 }, balance: 0, jobs: 0, charges: 0 });
  });

  it('ai_units, influencer analyses at 49/50 with 10 credits: one analysis, one credit taken', async () => {
    const o = await soft.register('last-unit-analyze@allowance.test');
    await soft.grant(o.ws, 10);
    await atUsage(soft, o.ws, 'ai_units', 49);
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => soft.call('POST', '/api/influencers/analyze', { auth: o.token, body: { handle: `@creator${i}` } })));
    expectOneThrough(answers, 'ai_units', 50);
    expect(await state(soft, o.ws, o.token)).toMatchObject({ usage: { ai_units: 50 }, balance: 9, charges: 1 });
  });

  it('posts: eight posts at 29/30 on free, one post, usage 30', async () => {
    const o = await soft.register('last-post@allowance.test');
    await atUsage(soft, o.ws, 'posts', 29);
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => soft.call('POST', '/api/posts', { auth: o.token, body: { title: `post ${i}`, body: 'x' } })));
    expectOneThrough(answers, 'posts', 30);
    expect(await state(soft, o.ws, o.token)).toMatchObject({ usage: { posts: 30 }, posts: 1 });
  });
});
