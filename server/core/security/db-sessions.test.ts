import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database';
import { createTestSchema, type TestSchema } from '../db/postgres.testkit';
import { endSession, endSessionsOf, openSession, sessionLive, type SessionsDB } from './db-sessions';

describe.each(['sqlite', 'postgres'] as const)('session records on the async layer (%s)', (dialect) => {
  let schema: TestSchema | null = null;
  let d: Database<SessionsDB>;
  beforeEach(async () => {
    if (dialect === 'postgres') schema = await createTestSchema('sessions');
    d = openDatabase<SessionsDB>({ url: schema?.url, file: ':memory:', statementTimeoutMs: 5000, lockTimeoutMs: 2000 });
    await d.script(d.db, 'CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)');
  });
  afterEach(async () => {
    await d.close();
    await schema?.drop();
    schema = null;
  });

  it('a session lives for its user until it ends; another user cannot borrow its id', async () => {
    const sid = await openSession(d.db, 'u1', 60_000);
    expect(sid).toMatch(/^ses_[A-Za-z0-9_-]{22}$/);
    expect(await sessionLive(d.db, sid, 'u1')).toBe(true);
    expect(await sessionLive(d.db, sid, 'u2')).toBe(false);
    await endSession(d.db, sid);
    expect(await sessionLive(d.db, sid, 'u1')).toBe(false);
  });

  it('an expired session is over, and ids that are not strings or are too long are refused', async () => {
    const sid = await openSession(d.db, '7', 60_000);
    expect(await sessionLive(d.db, sid, 7)).toBe(true);
    await sql`UPDATE sessions SET expires_at = ${Date.now() - 1} WHERE id = ${sid}`.execute(d.db);
    expect(await sessionLive(d.db, sid, 7)).toBe(false);
    expect(await sessionLive(d.db, undefined, 7)).toBe(false);
    expect(await sessionLive(d.db, 'x'.repeat(65), 7)).toBe(false);
  });

  it('ending every session of a user leaves the others', async () => {
    const a1 = await openSession(d.db, 'a', 60_000);
    const a2 = await openSession(d.db, 'a', 60_000);
    const b = await openSession(d.db, 'b', 60_000);
    await endSessionsOf(d.db, 'a');
    expect([await sessionLive(d.db, a1, 'a'), await sessionLive(d.db, a2, 'a'), await sessionLive(d.db, b, 'b')]).toEqual([false, false, true]);
  });
});
