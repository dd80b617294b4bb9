import { randomBytes } from 'node:crypto';
import { badRequest, gone } from '../../core/errors';
import type { AgentsContext } from '../context';
import { hashSecret } from '../workspace/workspace.service';
import { consumeVerification, insertVerification, verificationByHash } from './account-tokens.repository';
import { markEmailVerified, userEmail } from './users.repository';

/** A verification link is good for 24 hours and one use. */
const VERIFY_TTL_MS = 24 * 3600_000;

/**
 * Mails a link proving the account owns its address (sent at registration and on request). Only the
 * token's SHA-256 is stored, bound to the address it was mailed to.
 */
export async function sendVerification(ctx: AgentsContext, user: { id: string; email: string }): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await insertVerification(ctx.db, hashSecret(token), user.id, user.email, Date.now() + VERIFY_TTL_MS);
  const link = `${ctx.config.appUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Confirm your email address',
    text: `Open this link within 24 hours to confirm that this address belongs to your account:\n${link}\n\nIf you did not create an account, ignore this mail.\n`,
  });
}

/** The mail's token (once, within its day, for the address it went to) marks the account's address verified. */
export async function verifyEmail(ctx: AgentsContext, token: string): Promise<{ userId: string; email: string }> {
  const used = () => badRequest('invalid or already used verification token');
  return ctx.db.transaction().execute(async (tx) => {
    const h = hashSecret(token);
    const row = await verificationByHash(tx, h);
    if (!row || row.used) throw used();
    if (Number(row.expires_at) < Date.now()) throw gone('verification token expired');
    if ((await userEmail(tx, row.user_id)) !== row.email) throw used();
    // Of two concurrent uses of one token only one marks it.
    if (!(await consumeVerification(tx, h))) throw used();
    await markEmailVerified(tx, row.user_id);
    return { userId: row.user_id, email: row.email };
  });
}
