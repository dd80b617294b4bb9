import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endSession, endSessionsOf, openSession, sessionLive } from './sql-sessions';

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  // user_id without a type: text ids (agents) and integer ids (studio) both keep their value.
  db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)');
});
afterEach(() => db.close());

describe('SQL session records', () => {
  it('a session lives for its user until it ends; another user cannot borrow its id', () => {
    const sid = openSession(db, 'u1', 60_000);
    expect(sid).toMatch(/^ses_[A-Za-z0-9_-]{22}$/);
    expect(sessionLive(db, sid, 'u1')).toBe(true);
    expect(sessionLive(db, sid, 'u2')).toBe(false);
    endSession(db, sid);
    expect(sessionLive(db, sid, 'u1')).toBe(false);
  });

  it('an expired session is over, and ids that are not strings or are too long are refused', () => {
    const sid = openSession(db, 7, 60_000);
    expect(sessionLive(db, sid, 7)).toBe(true);
    db.prepare('UPDATE sessions SET expires_at = ? WHERE id = ?').run(Date.now() - 1, sid);
    expect(sessionLive(db, sid, 7)).toBe(false);
    expect(sessionLive(db, undefined, 7)).toBe(false);
    expect(sessionLive(db, 'x'.repeat(65), 7)).toBe(false);
  });

  it('ending every session of a user leaves the others', () => {
    const a1 = openSession(db, 'a', 60_000);
    const a2 = openSession(db, 'a', 60_000);
    const b = openSession(db, 'b', 60_000);
    endSessionsOf(db, 'a');
    expect([sessionLive(db, a1, 'a'), sessionLive(db, a2, 'a'), sessionLive(db, b, 'b')]).toEqual([false, false, true]);
  });
});
