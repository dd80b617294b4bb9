import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { startSecondInstance, type SecondInstance } from '../instances.testkit';
import { testStore } from '../store.testkit';
import { balanceOf, setBalance } from './ledger';

/**
 * Two instances of the platform (two createAgentsApp, each with its own connection pool) on one PostgreSQL
 * database share one credit ledger. Chat turns spent at once through both neither lose nor mint a credit,
 * and the balance never goes below zero.
 */
const onPostgres = testStore() === 'pg';
let t: AgentsTestServer;
let second: SecondInstance | null = null;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await startAgentsServer();
  second = await startSecondInstance(t);
}, 60_000);

afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe.skipIf(!onPostgres)('one credit ledger, two platform instances on one PostgreSQL database', () => {
  it('concurrent chat turns through both neither lose nor mint credits, and never overdraw', async () => {
    const b = second;
    if (!b) throw new Error('second instance missing');
    const { api, agentId } = await t.withAgent('Two');
    await api.post('/api/sources', { type: 'qa', question: 'What are your opening hours?', answer: 'We are open from 9:00 to 18:00 on weekdays.' });
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const START = 30;
    await setBalance(t.ctx.db, ws, START);
    const other = new Api(b.base, api.token);
    expect((await other.get('/api/billing/wallet')).body.balance).toBe(START);

    // 70 turns asked for against 30 credits, alternating between the instances, all at once.
    const answers = await Promise.all(Array.from({ length: 70 }, (_, i) => (i % 2 ? other : api).post('/api/chat', { agentId, message: `What are your opening hours? (${i})` })));
    expect(answers.filter((r) => r.status !== 200 && r.status !== 402).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const paid = answers.filter((r) => r.status === 200);
    expect(paid).toHaveLength(START);
    expect(answers.filter((r) => r.status === 402).every((r) => str(r.body.error) === 'out of credits')).toBe(true);
    // Each answered turn reports the balance its own debit left: every value from START-1 down to 0 exactly once.
    expect(paid.map((r) => Number(r.body.credits)).every((c) => c >= 0)).toBe(true);

    expect(await balanceOf(t.ctx.db, ws)).toBe(0);
    expect(await balanceOf(b.ctx.db, ws)).toBe(0);
    // The ledger agrees: one entry per answered turn, a chain of balances that never goes below zero.
    const entries = await t.ctx.db.selectFrom('credit_ledger').select(['delta', 'balance', 'reason']).where('workspace_id', '=', ws).orderBy('id').execute();
    expect(entries.reduce((sum, e) => sum + e.delta, 0)).toBe(0);
    const chats = entries.filter((e) => e.reason === 'chat');
    expect(chats).toHaveLength(START);
    expect(chats.map((e) => e.balance)).toEqual(Array.from({ length: START }, (_, i) => START - 1 - i));
    expect(entries.every((e) => e.balance >= 0)).toBe(true);
  }, 120_000);
});
