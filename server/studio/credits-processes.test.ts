import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, type TestSchema } from '../core/db/postgres.testkit';
import { startServerProcess, type ServerProcess } from '../core/testing/process.testkit';
import { openStudioDb, type StudioDatabase } from './db';
import { testStore } from './testing.testkit';

/**
 * Two studio processes on one database (one PostgreSQL schema under studio-pg, one SQLite file otherwise)
 * share one credit ledger. Spending at once through both, no credit is lost or minted and the balance
 * never goes below zero.
 */
const ADMIN = 'two-process-admin';

const dataDirs = [mkdtempSync(join(tmpdir(), 'studio-a-')), mkdtempSync(join(tmpdir(), 'studio-b-'))];
let schema: TestSchema | null = null;
let processes: ServerProcess[] = [];

beforeAll(async () => {
  if (testStore() === 'pg') schema = await createTestSchema('studio2p');
  const env = (dir: string): Record<string, string> => ({
    // SQLite: both processes on the same file (the first data folder); PostgreSQL: the same schema.
    STUDIO_DATA_DIR: schema ? dir : dataDirs[0],
    ...(schema ? { STUDIO_DATABASE_URL: schema.url } : {}),
    STUDIO_ADMIN_SECRET: ADMIN,
    STUDIO_JWT_SECRET: 'two-process-jwt-secret-of-the-test',
    STUDIO_CREDIT_ENFORCEMENT: '1',
    STUDIO_LOCAL_PLATFORM_MS: '600000',
    STUDIO_LOG: '0',
  });
  // One after the other: the second finds the schema migrated (and the data folder's keys written).
  processes.push(await startServerProcess(env(dataDirs[0]), 60_000, 'server/studio/main.ts'));
  processes.push(await startServerProcess(env(dataDirs[1]), 60_000, 'server/studio/main.ts'));
}, 150_000);

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null) await p.stop();
  processes = [];
  await schema?.drop();
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
});

const openShared = () => openStudioDb({ file: join(dataDirs[0], 'studio.db'), url: schema?.url, statementTimeoutMs: 30_000, lockTimeoutMs: 5000 });

async function post(base: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('one credit ledger, two studio processes', () => {
  it('concurrent spending through both processes neither loses nor mints credits, and never overdraws', async () => {
    const [a, b] = processes.map((p) => p.url);
    const reg = await post(a, '/api/auth/register', { email: 'spender@two.test', password: 'correct horse' }, {});
    expect(reg.status).toBe(200);
    const token = String(reg.body.token);
    const ws = Number(reg.body.workspace_id);
    expect((await post(b, '/api/billing/plan', { plan: 'business' }, { authorization: `Bearer ${token}` })).status).toBe(200);
    const key = String((await post(a, '/api/settings/api-keys', { name: 'spend' }, { authorization: `Bearer ${token}` })).body.key);
    const START = 100;
    expect((await post(b, '/api/admin/credits', { workspace_id: ws, amount: START }, { 'x-admin-secret': ADMIN })).body.balance).toBe(START);

    // 280 credits asked for against 100: analyses (1 credit) and image generations (12), alternating between the processes.
    const auth = { authorization: `Bearer ${key}` };
    const asks = Array.from({ length: 60 }, (_, i) => {
      const base = i % 2 ? b : a;
      return i % 3 === 0
        ? post(base, '/api/hf/generate', { model: 'studio/image-v1', prompt: `picture ${i}` }, auth).then((r) => ({ ...r, cost: 12 }))
        : post(base, '/api/influencers/analyze', { handle: `@creator${i}` }, auth).then((r) => ({ ...r, cost: 1 }));
    });
    const answers = await Promise.all(asks);
    expect(answers.filter((r) => r.status !== 200 && r.status !== 402).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    const spent = answers.filter((r) => r.status === 200).reduce((sum, r) => sum + r.cost, 0);
    expect(spent).toBeGreaterThan(0);
    expect(answers.some((r) => r.status === 402)).toBe(true);

    const billing = await fetch(`${a}/api/billing`, { headers: { authorization: `Bearer ${token}` } });
    const balance = ((await billing.json()) as { credits: { balance: number } }).credits.balance;
    expect(balance).toBe(START - spent);
    expect(balance).toBeGreaterThanOrEqual(0);

    // The ledger agrees with the balance row: every successful spend has its entry, nothing more.
    const database: StudioDatabase = await openShared();
    try {
      const sum = await database.db.selectFrom('credit_ledger').select((eb) => eb.fn.sum<number>('amount').as('total')).where('workspace_id', '=', ws).executeTakeFirstOrThrow();
      expect(Number(sum.total)).toBe(START - spent);
      const entries = await database.db.selectFrom('credit_ledger').select('amount').where('workspace_id', '=', ws).where('amount', '<', 0).execute();
      expect(entries.length).toBe(answers.filter((r) => r.status === 200).length);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('the last ai unit of the month asked for eight times at once through both processes (a pass covers them): one generation, seven 402 limit_reached', async () => {
    const ASKS = 8;
    const [a, b] = processes.map((p) => p.url);
    const reg = await post(a, '/api/auth/register', { email: 'last-unit@two.test', password: 'correct horse' }, {});
    const token = String(reg.body.token);
    const ws = Number(reg.body.workspace_id);
    expect((await post(b, '/api/admin/credits', { workspace_id: ws, amount: 100 }, { 'x-admin-secret': ADMIN })).body.balance).toBe(100);
    // A pass covers the generations: nothing but the allowance (and its metering) is in the way.
    expect((await post(a, '/api/admin/passes', { workspace_id: ws, scope: 'all' }, { 'x-admin-secret': ADMIN })).status).toBe(200);
    const database = await openShared();
    try {
      const { month } = await database.db.selectFrom('workspaces').select('month').where('id', '=', ws).executeTakeFirstOrThrow();
      await database.db.insertInto('usage').values({ workspace_id: ws, month, ai_units: 49 }).execute();
      const auth = { authorization: `Bearer ${token}` };
      const ask = () => Promise.all(Array.from({ length: ASKS }, (_, i) => post(i % 2 ? b : a, '/api/hf/generate', { model: 'studio/image-v1', prompt: `last ${i}` }, auth)));
      const answers = await ask();
      expect(answers.filter((r) => r.status !== 200 && r.status !== 402).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of answers.filter((x) => x.status === 402)) expect(r.body).toMatchObject({ error: 'limit_reached', kind: 'ai_units', limit: 50, upgrade: true });
      const usage = await database.db.selectFrom('usage').select('ai_units').where('workspace_id', '=', ws).where('month', '=', month).executeTakeFirstOrThrow();
      expect(Number(usage.ai_units)).toBe(50);
      const balance = await database.db.selectFrom('credit_balances').select('balance').where('workspace_id', '=', ws).executeTakeFirstOrThrow();
      expect(Number(balance.balance)).toBe(100);
      const jobs = await database.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', ws).executeTakeFirstOrThrow();
      expect(Number(jobs.n)).toBe(1);
    } finally {
      await database.close();
    }
  }, 120_000);
});
