import { randomBytes } from 'node:crypto';
import { badRequest, gone } from '../../core/errors';
import type { AgentsContext } from '../context';
import { hashSecret } from '../workspace/workspace.service';

/** A verification link is good for 24 hours and one use. */
const VERIFY_TTL_MS = 24 * 3600_000;

/**
 * Mails a link proving the account owns its address (sent at registration and on request). Only the
 * token's SHA-256 is stored, bound to the address it was mailed to.
 */
export async function sendVerification(ctx: AgentsContext, user: { id: string; email: string }): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  ctx.legacyDb.prepare('INSERT INTO email_verifications (token_hash, user_id, email, expires_at) VALUES (?, ?, ?, ?)').run(hashSecret(token), user.id, user.email, Date.now() + VERIFY_TTL_MS);
  const link = `${ctx.config.appUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Confirm your email address',
    text: `Open this link within 24 hours to confirm that this address belongs to your account:\n${link}\n\nIf you did not create an account, ignore this mail.\n`,
  });
}

/** The mail's token (once, within its day, for the address it went to) marks the account's address verified. */
export function verifyEmail(ctx: AgentsContext, token: string): { userId: string; email: string } {
  return ctx.legacyDb.transaction(() => {
    const h = hashSecret(token);
    const row = ctx.legacyDb.prepare('SELECT user_id, email, expires_at, used FROM email_verifications WHERE token_hash = ?').get(h) as
      | { user_id: string; email: string; expires_at: number; used: number }
      | undefined;
    if (!row || row.used) throw badRequest('invalid or already used verification token');
    if (Number(row.expires_at) < Date.now()) throw gone('verification token expired');
    const u = ctx.legacyDb.prepare('SELECT email FROM users WHERE id = ?').get(row.user_id) as { email: string } | undefined;
    if (!u || u.email !== row.email) throw badRequest('invalid or already used verification token');
    ctx.legacyDb.prepare('UPDATE email_verifications SET used = 1 WHERE token_hash = ?').run(h);
    ctx.legacyDb.prepare('UPDATE users SET email_verified = 1 WHERE id = ?').run(row.user_id);
    return { userId: row.user_id, email: row.email };
  })();
}
