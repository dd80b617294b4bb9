import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../core/db/database';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

/**
 * A chat turn is debited before the model runs; when the turn cannot be stored its credit goes back (one `refund`
 * entry naming the debit) and the caller gets the error. The store is made to fail by a trigger that refuses the
 * visitor's message (text containing USER_FAILS) or the reply in a conversation whose first message contains REPLY_FAILS.
 */
const USER_FAILS = '[user-store-fails]';
const REPLY_FAILS = '[reply-store-fails]';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
  if (dialectOf(t.ctx.db) === 'postgres') {
    await sql.raw(`
      CREATE FUNCTION test_refuse_message() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (NEW.role = 'user' AND position('${USER_FAILS}' in NEW.text) > 0)
          OR (NEW.role = 'assistant' AND (SELECT position('${REPLY_FAILS}' in first_message) FROM conversations WHERE id = NEW.conversation_id) > 0) THEN
          RAISE EXCEPTION 'storage failed (test)';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_refuse_message BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION test_refuse_message();`).execute(t.ctx.db);
  } else {
    await sql.raw(`
      CREATE TRIGGER test_refuse_message BEFORE INSERT ON messages
      WHEN (NEW.role = 'user' AND instr(NEW.text, '${USER_FAILS}') > 0)
        OR (NEW.role = 'assistant' AND (SELECT instr(first_message, '${REPLY_FAILS}') FROM conversations WHERE id = NEW.conversation_id) > 0)
      BEGIN SELECT RAISE(ABORT, 'storage failed (test)'); END;`).execute(t.ctx.db);
  }
});
afterAll(() => t.close());

async function trained() {
  const r = await t.withAgent('Shop');
  await r.api.post('/api/sources', { type: 'qa', question: 'What are your opening hours?', answer: 'We are open from 9:00 to 18:00 on weekdays.' });
  const ws = str((await r.api.get('/api/auth/me')).body.workspace.id);
  return { ...r, ws };
}

const wallet = async (api: { get: (p: string) => Promise<{ body: Record<string, unknown> }> }) => Number((await api.get('/api/billing/wallet')).body.balance);
const ledger = (ws: string) => t.ctx.db.selectFrom('credit_ledger').select(['id', 'delta', 'balance', 'reason', 'ref', 'note']).where('workspace_id', '=', ws).orderBy('id').execute();

describe('POST /api/chat when the turn cannot be stored', () => {
  it('the reply fails to store: 500 internal error, the credit is refunded once, no reply is kept', async () => {
    const { api, agentId, ws } = await trained();
    const r = await api.post('/api/chat', { agentId, message: `What are your opening hours? ${REPLY_FAILS}` });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'internal error' });
    expect(await wallet(api)).toBe(100);
    const entries = await ledger(ws);
    const debit = entries.find((e) => e.reason === 'chat');
    expect(entries.slice(1).map((e) => [e.reason, e.delta, e.balance, e.note])).toEqual([['chat', -1, 99, ''], ['refund', 1, 100, 'chat turn failed']]);
    expect(entries.at(-1)?.ref).toBe(`refund:${debit?.id}`);
    // the visitor's message is kept, no reply is
    const roles = await t.ctx.db.selectFrom('messages').select('role').where('workspace_id', '=', ws).execute();
    expect(roles.map((m) => m.role)).toEqual(['user']);
    // the next turn is charged as usual
    const ok = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    expect(ok.body).toMatchObject({ reply: 'We are open from 9:00 to 18:00 on weekdays.', credits: 99 });
  });

  it("the visitor's message fails to store: 500, refunded, nothing stored", async () => {
    const { api, agentId, ws } = await trained();
    const r = await api.post('/api/chat', { agentId, message: `hello ${USER_FAILS}` });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'internal error' });
    expect(await wallet(api)).toBe(100);
    expect((await ledger(ws)).map((e) => e.reason)).toEqual(['signup', 'chat', 'refund']);
    expect(arr((await api.get('/api/conversations')).body.conversations)).toHaveLength(0);
  });

  it('streaming: the error event follows the pieces and the credit is refunded', async () => {
    const { api, agentId } = await trained();
    const res = await fetch(`${t.base}/api/chat?stream=1`, {
      method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ agentId, message: `What are your opening hours? ${REPLY_FAILS}` }),
    });
    const frames = (await res.text()).split('\n\n').filter(Boolean).map((f) => f.split('\n')[0].replace(/^event: /, ''));
    expect(frames[0]).toBe('start');
    expect(frames.at(-1)).toBe('error');
    expect(frames).not.toContain('done');
    expect(await wallet(api)).toBe(100);
  });

  it('widget chat: the same refund, and concurrent failing and answered turns keep the wallet exact', async () => {
    const { api, publicId, ws } = await trained();
    const ip = (i: number) => ({ 'x-forwarded-for': `10.91.${Math.floor(i / 200)}.${(i % 200) + 1}` });
    const turns = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.api(null, ip(i)).post(`/api/public/${publicId}/chat`, { message: i % 3 === 0 ? `hi ${REPLY_FAILS} ${i}` : `What are your opening hours? ${i}` })),
    );
    expect(turns.map((r) => r.status).sort()).toEqual([...Array(8).fill(200), ...Array(4).fill(500)]);
    expect(await wallet(api)).toBe(100 - 8);
    const entries = await ledger(ws);
    expect(entries.filter((e) => e.reason === 'chat')).toHaveLength(12);
    const refunds = entries.filter((e) => e.reason === 'refund');
    expect(refunds).toHaveLength(4);
    expect(new Set(refunds.map((e) => e.ref)).size).toBe(4);
    expect(entries.reduce((s, e) => s + e.delta, 0)).toBe(100 - 8);
  });
});
