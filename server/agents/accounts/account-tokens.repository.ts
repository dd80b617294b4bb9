import type { AgentsDb } from '../schema';

/** Password-reset and address-verification tokens (only their SHA-256 is stored), each used once. */

export async function insertReset(db: AgentsDb, tokenHash: string, userId: string, expiresAt: number): Promise<void> {
  await db.insertInto('password_resets').values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt }).execute();
}

/**
 * Uses up an unused, unexpired reset token and names its account; null when there is none. One
 * conditional UPDATE: of two concurrent uses of one token only one gets the account.
 */
export async function consumeReset(db: AgentsDb, tokenHash: string, now: number): Promise<string | null> {
  const r = await db
    .updateTable('password_resets').set({ used: 1 })
    .where('token_hash', '=', tokenHash).where('used', '=', 0).where('expires_at', '>=', now)
    .returning('user_id')
    .executeTakeFirst();
  return r?.user_id ?? null;
}

export async function insertVerification(db: AgentsDb, tokenHash: string, userId: string, email: string, expiresAt: number): Promise<void> {
  await db.insertInto('email_verifications').values({ token_hash: tokenHash, user_id: userId, email, expires_at: expiresAt }).execute();
}

export async function verificationByHash(db: AgentsDb, tokenHash: string) {
  return db.selectFrom('email_verifications').select(['user_id', 'email', 'expires_at', 'used']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the token used; false when a concurrent request used it first. */
export async function consumeVerification(db: AgentsDb, tokenHash: string): Promise<boolean> {
  const r = await db.updateTable('email_verifications').set({ used: 1 }).where('token_hash', '=', tokenHash).where('used', '=', 0).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
