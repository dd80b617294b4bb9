import type { AppContext } from '../../context';
import { DomainError, unavailable } from '../../../core/errors';
import { portalLink } from './portal.service';

/** How a portal link got its address: KITTING_PUBLIC_URL, the central a bench is enrolled with, or the request (this PC only). */
export type PortalLinkVia = 'public-url' | 'central' | 'request';

export interface IssuedPortalLink {
  /** The path with the token, as the route has always answered it. */
  url: string;
  /** The whole address to send to the customer. */
  link: string;
  /** The last day the link opens (JST). */
  expires: string;
  via: PortalLinkVia;
}

/**
 * A portal link for a customer to open from outside: on KITTING_PUBLIC_URL when it is set; on a bench
 * enrolled with a central, minted by that central (it signs the token and answers on its public address,
 * so the link works where the customer can reach it); otherwise on the address the request came to.
 */
export async function issuePortalLink(app: AppContext, ws: string, key: string, requestOrigin: string): Promise<IssuedPortalLink> {
  const publicUrl = app.config.publicUrl;
  if (publicUrl) {
    const l = portalLink(app, ws, key);
    return { url: l.path, link: `${publicUrl}${l.path}`, expires: l.expires, via: 'public-url' };
  }
  const bench = app.sync?.bench;
  if (bench && (await bench.status()).enrolled) {
    try {
      const a = await bench.portalLink(key);
      return { url: a.url, link: a.link, expires: a.expires, via: 'central' };
    } catch (err) {
      const code = err instanceof DomainError ? err.error : (err as { error?: string }).error;
      throw unavailable('portal_link_unavailable', {
        message:
          code === 'portal_not_found'
            ? 'この顧客のポータルはまだセンターに同期されていません。同期が終わってからもう一度発行してください'
            : 'センターに接続できないため、ポータルのリンクを発行できません。接続を確認してもう一度お試しください',
      });
    }
  }
  const l = portalLink(app, ws, key);
  return { url: l.path, link: `${requestOrigin}${l.path}`, expires: l.expires, via: 'request' };
}

/** Central: the link a bench asks for, for a portal of the bench's own workspace. */
export function centralPortalLink(app: AppContext, ws: string, key: string, requestOrigin: string): { url: string; link: string; expires: string } {
  const l = portalLink(app, ws, key);
  return { url: l.path, link: `${app.config.publicUrl ?? requestOrigin}${l.path}`, expires: l.expires };
}
