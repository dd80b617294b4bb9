import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Session records of the SQL-backed services (agent platform, studio) on the async data layer (core/db):
 * a session token names a session id and the account's token version; every request re-reads the
 * `sessions` row and the version, so logout (row removed), password change or reset (version bumped)
 * end access at the next request. Each service keeps a `sessions (id, user_id, created_at, expires_at)`
 * table (epoch milliseconds) in its own database.
 */
export type SessionUser = string | number;

export interface SessionsTable {
  id: string;
  user_id: SessionUser;
  created_at: number;
  expires_at: number;
}
export interface SessionsDB {
  sessions: SessionsTable;
}

/** Any service database with a `sessions` table (its user id type may be narrower). */
type WithSessions = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const on = (db: WithSessions) => db as unknown as Kysely<SessionsDB>;

/** A new session of the user for `ttlMs`; returns its id (random, 128 bits). */
export async function openSession(db: WithSessions, userId: SessionUser, ttlMs: number): Promise<string> {
  const sid = `ses_${randomBytes(16).toString('base64url')}`;
  const now = Date.now();
  await on(db).deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<', now).execute();
  await on(db).insertInto('sessions').values({ id: sid, user_id: userId, created_at: now, expires_at: now + ttlMs }).execute();
  return sid;
}

/** A session id as a token may carry it: a non-empty string of at most 64 characters (else no lookup is made). */
export const sessionIdValid = (sid: unknown): sid is string => typeof sid === 'string' && sid.length > 0 && sid.length <= 64;

/** A session row's expiry still ahead (a service that reads the row within a larger query judges it by this). */
export const sessionUnexpired = (expiresAt: unknown): boolean => expiresAt !== null && expiresAt !== undefined && Number(expiresAt) > Date.now();

/** True while the session exists, belongs to this user and has not expired. */
export async function sessionLive(db: WithSessions, sid: unknown, userId: SessionUser): Promise<boolean> {
  if (!sessionIdValid(sid)) return false;
  const row = await on(db).selectFrom('sessions').select(['user_id', 'expires_at']).where('id', '=', sid).executeTakeFirst();
  return !!row && String(row.user_id) === String(userId) && sessionUnexpired(row.expires_at);
}

/** Logout: the session's token answers 401 from the next request on. */
export async function endSession(db: WithSessions, sid: unknown): Promise<void> {
  if (typeof sid === 'string' && sid) await on(db).deleteFrom('sessions').where('id', '=', sid).execute();
}

/** Every session of the user ends (password change or reset); expired rows of anyone are dropped on the way. */
export async function endSessionsOf(db: WithSessions, userId: SessionUser): Promise<void> {
  await on(db).deleteFrom('sessions').where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<', Date.now())])).execute();
}
