import { badRequest, conflict } from '../../core/errors';
import { openSecret, sealSecret } from '../channels/secret-box';
import type { AgentsContext } from '../context';
import { getUser } from './accounts.service';
import { checkTotp, newTotpSecret, otpauthUri } from './totp';
import { disableTotp, enableTotp, setTotpPending } from './users.repository';

/** A new secret waits (sealed) until a code made from it enables two-factor. */
export async function startTwoFactorSetup(ctx: AgentsContext, userId: string): Promise<{ secret: string; otpauth: string }> {
  const u = await getUser(ctx, userId);
  if (u.totp_enabled) throw conflict('two-factor is already enabled');
  const secret = newTotpSecret();
  await setTotpPending(ctx.db, u.id, sealSecret(ctx.config, secret));
  return { secret, otpauth: otpauthUri(secret, u.email) };
}

/** A valid code of the pending secret turns two-factor on. */
export async function enableTwoFactor(ctx: AgentsContext, userId: string, code: string): Promise<void> {
  const u = await getUser(ctx, userId);
  if (u.totp_enabled) throw conflict('two-factor is already enabled');
  if (!u.totp_pending) throw badRequest('run 2fa setup first');
  if (!checkTotp(openSecret(ctx.config, u.totp_pending), code)) throw badRequest('invalid two-factor code');
  await enableTotp(ctx.db, u.id);
}

/** A valid code of the current secret turns two-factor off. */
export async function disableTwoFactor(ctx: AgentsContext, userId: string, code: string): Promise<void> {
  const u = await getUser(ctx, userId);
  if (!u.totp_enabled || !u.totp_secret) throw badRequest('two-factor is not enabled');
  if (!checkTotp(openSecret(ctx.config, u.totp_secret), code)) throw badRequest('invalid two-factor code');
  await disableTotp(ctx.db, u.id);
}
