import type { Request } from 'express';
import type { AgentsContext } from '../context';
import { hitByLinkCode, hitByPromoCode, insertReferral, ownedWorkspace, type LinkHit } from './affiliate.repository';

/** Cookie set by /r/<code>: the referral code, kept 60 days. */
export const REF_COOKIE = 'aff_ref';
export const REF_COOKIE_DAYS = 60;

function readRefCookie(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === REF_COOKIE) {
      const v = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,64}$/.test(v) ? v : null;
    }
  }
  return null;
}

/** A referral code: a campaign link's code, or an affiliate's promo code (its primary link). */
export async function resolveCode(ctx: AgentsContext, code: string): Promise<LinkHit | null> {
  return (await hitByLinkCode(ctx.db, code)) ?? (await hitByPromoCode(ctx.db, code.toUpperCase())) ?? null;
}

/** A workspace registered with an aff_ref cookie is attributed to that affiliate (never to the affiliate's own account). */
export async function attributeSignup(ctx: AgentsContext, req: Request, userId: string): Promise<void> {
  const code = readRefCookie(req);
  if (!code) return;
  const hit = await resolveCode(ctx, code);
  if (!hit || hit.userId === userId) return;
  const ws = await ownedWorkspace(ctx.db, userId);
  if (!ws) return;
  await insertReferral(ctx.db, ws, hit.affiliateId, hit.linkId);
}
