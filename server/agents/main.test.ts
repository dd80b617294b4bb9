import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../core/testing/process';
import { Api, str } from './testing';

describe('npm run agents (server/agents/main.ts)', () => {
  it('starts on a fresh data folder, a visitor chats with an agent trained on a Q&A source, SIGTERM exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agents-main-'));
    const proc = await startServerProcess({ AGENTS_DATA_DIR: dir }, 60_000, 'server/agents/main.ts');
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
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
