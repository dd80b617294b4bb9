import { isInternalAddress, postToPublicUrl } from '../../../core/security/ssrf';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { defineRoute, Reply } from '../../http/define-route';
import { badRequest, notFound, unauthorized, upstreamFailed } from '../../../core/errors';
import { principalOf } from '../../security/auth';
import { P, PLATFORM_WS } from '../platform-collections';
import { mintToken, readToken } from '../../security/tokens';
import type { Doc } from '../../store/types';
import { findProvider, oauthClient, PROVIDERS, type Provider } from './catalog';
import { providerRequests, providerResponses } from '../../../../shared/api/contracts/public';

const { params: pParams } = providerRequests;
const connId = (tid: string, key: string) => `${tid}:${key}`;
const origin = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The small page shown in the connect popup: reports to the opener and closes. */
function popup(ok: boolean, provider: string, message: string): Reply {
  const payload = JSON.stringify({ type: 'kitting-connect', provider, ok }).replace(/</g, '\\u003c');
  const html = `<!doctype html><html lang="ja"><meta charset="utf-8"><title>連携</title><body><p>${esc(message)}</p><script>try{window.opener&&window.opener.postMessage(${payload},location.origin)}catch(e){}setTimeout(function(){window.close()},1500)</script></body></html>`;
  return new Reply(ok ? 200 : 400, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  });
}

function tenantOf(req: Request): string {
  const p = principalOf(req);
  if (p.kind !== 'session') throw unauthorized('unauthorized');
  return p.tenantId;
}

function provider(key: string): Provider {
  const p = findProvider(key);
  if (!p) throw notFound('unknown provider');
  return p;
}

async function saveConnection(app: AppContext, tid: string, key: string, secret: Doc): Promise<void> {
  await app.store.transact(PLATFORM_WS, (tx) => tx.put(P.connections, connId(tid, key), { id: connId(tid, key), tid, provider: key, connectedAt: Date.now(), secret }));
}

export { isInternalAddress };

/** Real test POST to a webhook (https only, and public hosts only, in production). */
async function testWebhook(app: AppContext, url: string): Promise<boolean> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' && (app.config.production || u.protocol !== 'http:')) return false;
  const status = await postToPublicUrl(u, JSON.stringify({ text: 'Kitting Station 連携テスト', source: 'kitting-station' }), { allowInternal: !app.config.production });
  return status !== null && status >= 200 && status < 300;
}

export const providerRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/connect/status',
    response: providerResponses.status,
    auth: 'account',
    workspace: false,
    handler: async ({ app, req }) => {
      const tid = tenantOf(req);
      const conns = await app.store.list(PLATFORM_WS, P.connections);
      const providers = PROVIDERS.map((p) => ({
        key: p.key, name: p.name, group: p.group, authType: p.authType,
        connected: conns.some((c) => c.id === connId(tid, p.key)),
        configured: p.authType === 'oauth' ? oauthClient(p) !== null : true,
        guide: p.guide,
      }));
      return { origin: origin(req), providers };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/connect/:provider',
    produces: ['redirect', 'text/html'],
    auth: 'account:manager',
    workspace: false,
    params: pParams,
    handler: ({ app, req, params }) => {
      const p = findProvider(params.provider);
      if (!p) return new Reply(404, 'unknown provider', { 'Content-Type': 'text/plain; charset=utf-8' });
      const tid = tenantOf(req);
      const client = oauthClient(p);
      if (!p.oauth || !client) {
        return popup(false, p.key, p.oauth ? `${p.name} は未設定です。${p.guide}` : `${p.name} は画面から認証情報を入力して接続します。`);
      }
      const state = mintToken(app.secret, 'cstate', { p: p.key, tid });
      const q = new URLSearchParams({ client_id: client.id, redirect_uri: `${origin(req)}/api/connect/${p.key}/callback`, response_type: 'code', scope: p.oauth.scope, state });
      return new Reply(302, '', { Location: `${p.oauth.authorize}?${q}`, 'Cache-Control': 'no-store' });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/connect/:provider/callback',
    produces: 'text/html',
    auth: 'token',
    workspace: false,
    params: pParams,
    handler: async ({ app, req, params }) => {
      const p = findProvider(params.provider);
      if (!p) return new Reply(404, 'unknown provider', { 'Content-Type': 'text/plain; charset=utf-8' });
      const st = readToken(app.secret, 'cstate', req.query.state);
      if (!st || st.p !== p.key || typeof st.tid !== 'string') return popup(false, p.key, '接続に失敗しました（state が一致しません）');
      if (typeof req.query.error === 'string') return popup(false, p.key, '接続がキャンセルされました');
      const client = oauthClient(p);
      const code = req.query.code;
      if (!client || !p.oauth || typeof code !== 'string' || !code) return popup(false, p.key, '接続に失敗しました');
      try {
        const res = await fetch(p.oauth.token, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: client.id, client_secret: client.secret, redirect_uri: `${origin(req)}/api/connect/${p.key}/callback` }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) return popup(false, p.key, '接続に失敗しました（トークン取得エラー）');
        await saveConnection(app, st.tid, p.key, (await res.json()) as Doc);
      } catch {
        return popup(false, p.key, '接続に失敗しました（通信エラー）');
      }
      return popup(true, p.key, `${p.name} と接続しました`);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/connect/:provider/credentials',
    response: providerResponses.credentials,
    auth: 'account:manager',
    workspace: false,
    params: pParams,
    body: providerRequests.credentials,
    handler: async ({ app, req, params, body }) => {
      const p = provider(params.provider);
      const tid = tenantOf(req);
      if (!p.fields) throw badRequest('oauth provider', { message: `${p.name} は認可画面から接続します` });
      const values: Record<string, string> = {};
      for (const f of p.fields) {
        const v = body.fields?.[f];
        if (typeof v !== 'string' || !v.trim()) throw badRequest(`${f} required`, { field: f });
        values[f] = v.trim().slice(0, 500);
      }
      let tested = false;
      if (p.authType === 'webhook') {
        tested = await testWebhook(app, values[p.fields[0]]);
        if (!tested) throw upstreamFailed('webhook test failed', { message: 'テスト送信に失敗しました。URL を確認してください' });
      }
      await saveConnection(app, tid, p.key, values);
      return { tested };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/connect/:provider/disconnect',
    response: providerResponses.disconnect,
    auth: 'account:manager',
    workspace: false,
    params: pParams,
    handler: async ({ app, req, params }) => {
      const p = provider(params.provider);
      const tid = tenantOf(req);
      await app.store.transact(PLATFORM_WS, (tx) => tx.remove(P.connections, connId(tid, p.key)));
      return {};
    },
  }),
];
