import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../core/testing/process.testkit';
import { Api, arr, str } from './harness.testkit';
import { createTestDatabase, testStore } from './store.testkit';

describe('npm run agents (server/agents/main.ts)', () => {
  it('starts on a fresh data folder, a visitor chats with an agent trained on a Q&A source, SIGTERM exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agents-main-'));
    const pg = testStore() === 'pg' ? await createTestDatabase() : null;
    const proc = await startServerProcess({ AGENTS_DATA_DIR: dir, ...(pg ? { AGENTS_DATABASE_URL: pg.url } : {}) }, 60_000, 'server/agents/main.ts');
    try {
      const reg = await new Api(proc.url).post('/api/auth/register', { email: 'owner@example.com', password: 'owner-pass' });
      expect(reg.status).toBe(200);
      const api = new Api(proc.url, str(reg.body.token));
      const agent = await api.post('/api/agents', { name: 'Clinic' });
      await api.post('/api/sources', { type: 'qa', question: 'Do I need an appointment?', answer: 'Yes, please book online or call us.' });
      const chat = await new Api(proc.url).post(`/api/public/${str(agent.body.agent.public_id)}/chat`, { message: 'Do I need an appointment?' });
      expect(chat.body).toMatchObject({ reply: 'Yes, please book online or call us.', engine: 'local' });
    } finally {
      expect(await proc.stop()).toBe(0);
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(testStore() === 'pg')('two processes on one PostgreSQL database share accounts, agents, knowledge and one credit ledger', async () => {
    const pg = await createTestDatabase();
    const dirs = [mkdtempSync(join(tmpdir(), 'agents-a-')), mkdtempSync(join(tmpdir(), 'agents-b-'))];
    const env = (dir: string) => ({ AGENTS_DATA_DIR: dir, AGENTS_DATABASE_URL: pg.url, AGENTS_JWT_SECRET: 'one-secret-for-both-processes', AGENTS_TRUST_PROXY: '1' });
    // Started together: both apply the migrations to the empty database, each migration once.
    const [a, b] = await Promise.all(dirs.map((d) => startServerProcess(env(d), 90_000, 'server/agents/main.ts')));
    try {
      const reg = await new Api(a.url).post('/api/auth/register', { email: 'owner@example.com', password: 'owner-pass' });
      expect(reg.status).toBe(200);
      const login = await new Api(b.url).post('/api/auth/login', { email: 'owner@example.com', password: 'owner-pass' });
      expect(login.status).toBe(200);
      const onA = new Api(a.url, str(reg.body.token));
      const onB = new Api(b.url, str(login.body.token));
      const agent = await onA.post('/api/agents', { name: 'Clinic' });
      expect((await onB.post('/api/sources', { type: 'qa', question: 'Do I need an appointment?', answer: 'Yes, please book online or call us.' })).status).toBe(200);
      const publicId = str(agent.body.agent.public_id);
      const start = (await onA.get('/api/billing/wallet')).body.balance as unknown as number;

      // Visitors chat through both processes at once: every turn is debited once from the one ledger.
      const turns = 40;
      const replies = await Promise.all(
        Array.from({ length: turns }, (_, i) => new Api(i % 2 ? a.url : b.url, null, { 'x-forwarded-for': `10.8.0.${i + 1}` }).post(`/api/public/${publicId}/chat`, { message: 'Do I need an appointment?' })),
      );
      expect(replies.map((r) => [r.status, r.body.reply])).toEqual(Array.from({ length: turns }, () => [200, 'Yes, please book online or call us.']));
      const walletA = (await onA.get('/api/billing/wallet')).body;
      const walletB = (await onB.get('/api/billing/wallet')).body;
      expect(walletA.balance).toBe(start - turns);
      expect(walletB.balance).toBe(start - turns);
      expect(arr(walletB.entries).filter((e) => str(e.reason) === 'chat')).toHaveLength(turns);
      const conversations = (await onB.get('/api/conversations')).body;
      expect(arr(conversations.conversations)).toHaveLength(turns);
    } finally {
      const codes = await Promise.all([a.stop(), b.stop()]);
      await pg.drop();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      expect(codes).toEqual([0, 0]);
    }
  });
});
