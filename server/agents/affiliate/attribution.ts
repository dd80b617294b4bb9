import type { Request } from 'express';
import type { AgentsContext } from '../context';

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

export interface LinkHit {
  linkId: string;
  affiliateId: string;
  userId: string;
}

/** A referral code: a campaign link's code, or an affiliate's promo code (its primary link). */
export function resolveCode(ctx: AgentsContext, code: string): LinkHit | null {
  const byLink = ctx.legacyDb
    .prepare(`SELECT l.id AS "linkId", a.id AS "affiliateId", a.user_id AS "userId" FROM affiliate_links l JOIN affiliates a ON a.id = l.affiliate_id WHERE l.code = ? AND a.status = 'active'`)
    .get(code) as LinkHit | undefined;
  if (byLink) return byLink;
  const byPromo = ctx.legacyDb
    .prepare(`SELECT l.id AS "linkId", a.id AS "affiliateId", a.user_id AS "userId" FROM affiliates a JOIN affiliate_links l ON l.affiliate_id = a.id AND l.is_primary = 1 WHERE a.promo_code = ? AND a.status = 'active'`)
    .get(code.toUpperCase()) as LinkHit | undefined;
  return byPromo ?? null;
}

/** A workspace registered with an aff_ref cookie is attributed to that affiliate (never to the affiliate's own account). */
export function attributeSignup(ctx: AgentsContext, req: Request, userId: string): void {
  const code = readRefCookie(req);
  if (!code) return;
  const hit = resolveCode(ctx, code);
  if (!hit || hit.userId === userId) return;
  const ws = ctx.legacyDb.prepare("SELECT workspace_id FROM members WHERE user_id = ? AND role = 'owner' ORDER BY created_at LIMIT 1").get(userId) as { workspace_id: string } | undefined;
  if (!ws) return;
  ctx.legacyDb.prepare('INSERT INTO affiliate_referrals (workspace_id, affiliate_id, link_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(ws.workspace_id, hit.affiliateId, hit.linkId, Date.now());
}
