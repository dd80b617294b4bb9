import { randomBytes } from 'node:crypto';
import type { SqlDb, SqlStatement } from '../sql/types';

/**
 * Session records of the SQL-backed services (agent platform, studio), the same model as kitting's
 * store-backed sessions (sessions.ts): a session token names a session id and the account's token
 * version; every request re-reads the `sessions` row and the version, so logout (row removed),
 * password change or reset (version bumped) end access at the next request, for Bearer tokens and
 * cookies alike. Each service keeps a `sessions (id, user_id, created_at, expires_at)` table
 * (epoch milliseconds) in its own database.
 */
export type SessionUser = string | number;

/** Statements prepared once per connection: the session check runs on every signed-in request. */
const prepared = new WeakMap<SqlDb, Map<string, SqlStatement>>();
function q(db: SqlDb, sql: string): SqlStatement {
  let m = prepared.get(db);
  if (!m) prepared.set(db, (m = new Map()));
  let st = m.get(sql);
  if (!st) m.set(sql, (st = db.prepare(sql)));
  return st;
}

/** A new session of the user for `ttlMs`; returns its id (random, 128 bits). */
export function openSession(db: SqlDb, userId: SessionUser, ttlMs: number): string {
  const sid = `ses_${randomBytes(16).toString('base64url')}`;
  const now = Date.now();
  q(db, 'DELETE FROM sessions WHERE user_id = ? AND expires_at < ?').run(userId, now);
  q(db, 'INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(sid, userId, now, now + ttlMs);
  return sid;
}

/** True while the session exists, belongs to this user and has not expired. */
export function sessionLive(db: SqlDb, sid: unknown, userId: SessionUser): boolean {
  if (typeof sid !== 'string' || sid.length === 0 || sid.length > 64) return false;
  const row = q(db, 'SELECT user_id, expires_at FROM sessions WHERE id = ?').get(sid) as { user_id: SessionUser; expires_at: number } | undefined;
  return !!row && String(row.user_id) === String(userId) && Number(row.expires_at) > Date.now();
}

/** Logout: the session's token answers 401 from the next request on. */
export function endSession(db: SqlDb, sid: unknown): void {
  if (typeof sid === 'string' && sid) q(db, 'DELETE FROM sessions WHERE id = ?').run(sid);
}

/** Every session of the user ends (password change or reset); expired rows of anyone are dropped on the way. */
export function endSessionsOf(db: SqlDb, userId: SessionUser): void {
  q(db, 'DELETE FROM sessions WHERE user_id = ? OR expires_at < ?').run(userId, Date.now());
}
