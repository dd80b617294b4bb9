import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { defineRoute, Reply } from '../../http/define-route';
import { forbidden, unauthorized, unavailable, upstreamFailed } from '../../../core/errors';
import { hitLimit } from '../../security/limits';
import { safeEqual } from '../../../core/security/passwords';
import { readCookie } from '../../security/sessions';
import { P, PLATFORM_WS } from '../platform-collections';
import { readSiteConfig } from '../../security/site-config';
import { mintToken, readToken } from '../../security/tokens';
import type { Doc } from '../../store/types';
import { ACCOUNTS, addTeamMember, newWorkspace, publicAccount } from './accounts.service';
import { openSession } from './session.http';
import { googleAuthorizeUrl, googleConfig, googleEmail, sendSms, smsConfig } from './sign-in-providers';
import { accountRequests, accountResponses } from '../../../../shared/api/contracts/accounts';

const redirect = (to: string) => new Reply(302, '', { Location: to, 'Cache-Control': 'no-store' });

function callbackUri(req: Request, configured: string | null): string {
  return configured ?? `${req.protocol}://${req.get('host') ?? 'localhost'}/api/auth/google/callback`;
}

/** Find the account for this key, or create it with a fresh workspace (owner of it). */
async function findOrCreate(app: AppContext, id: string, fields: { email: string | null; phone?: string; name: string }): Promise<Doc> {
  const existing = await app.store.get<Doc>(PLATFORM_WS, ACCOUNTS, id);
  if (existing) return (await app.store.transact(PLATFORM_WS, (tx) => tx.patch(ACCOUNTS, id, { lastLogin: Date.now() }))) as Doc;
  const { config } = await readSiteConfig(app);
  if (!config.registrationOpen) throw forbidden('registration closed');
  const ws = await newWorkspace(app, 'account', { owner: id, email: fields.email ?? '' });
  const now = Date.now();
  const acct = await app.store.transact(PLATFORM_WS, (tx) =>
    tx.put(ACCOUNTS, id, { id, ...fields, company: '', tenantId: ws, created: now, lastLogin: now, pwHash: null, tokenVersion: 1 }),
  );
  await app.store.transact(ws, (tx) => addTeamMember(tx, { name: fields.name, email: fields.email ?? '', role: 'owner', account: id }));
  return acct;
}

const STATE_COOKIE = 'kit_gstate';
const nonceHash = (nonce: string) => createHash('sha256').update(nonce).digest('base64url');
function stateCookie(app: AppContext, value: string, maxAge: number): string {
  const secure = app.config.production ? '; Secure' : '';
  return `${STATE_COOKIE}=${value}; Path=/api/auth/google; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

const codeHash = (secret: Buffer, phone: string, code: string) => createHmac('sha256', secret).update(`sms\n${phone}\n${code}`).digest('hex');

export const authMethodRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/auth/methods',
    response: accountResponses.methods,
    auth: 'public',
    workspace: false,
    handler: () => ({ password: true, google: googleConfig() !== null, phone: smsConfig() !== null }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/google/start',
    produces: 'redirect',
    auth: 'public',
    workspace: false,
    handler: ({ app, req, res }) => {
      const cfg = googleConfig();
      if (!cfg) throw unavailable('google_not_configured', { message: 'Googleログインは設定されていません' });
      // The state is bound to this browser: a nonce in an HttpOnly cookie, its hash in the signed state.
      const nonce = randomBytes(24).toString('base64url');
      res.append('Set-Cookie', stateCookie(app, nonce, 600));
      const state = mintToken(app.secret, 'gstate', { n: nonceHash(nonce) });
      return redirect(googleAuthorizeUrl(cfg, callbackUri(req, cfg.redirectUri), state));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/google/callback',
    produces: 'redirect',
    auth: 'token',
    workspace: false,
    handler: async ({ app, req, res }) => {
      const cfg = googleConfig();
      if (!cfg) return redirect('/login.html?err=not_configured');
      const { code, state } = req.query;
      const st = readToken(app.secret, 'gstate', state);
      const nonce = readCookie(req, STATE_COOKIE);
      res.append('Set-Cookie', stateCookie(app, '', 0));
      if (!st || !nonce || typeof st.n !== 'string' || !safeEqual(st.n, nonceHash(nonce))) return redirect('/login.html?err=state');
      if (typeof code !== 'string' || !code) return redirect('/login.html?err=code');
      let who: { email: string; name: string } | null = null;
      try {
        who = await googleEmail(cfg, callbackUri(req, cfg.redirectUri), code);
      } catch {
        who = null;
      }
      if (!who) return redirect('/login.html?err=exchange');
      let acct: Doc;
      try {
        acct = await findOrCreate(app, who.email, { email: who.email, name: who.name.slice(0, 80) });
      } catch {
        return redirect('/login.html?err=closed');
      }
      const { config } = await readSiteConfig(app);
      return redirect(`/login.html#gt=${encodeURIComponent(await openSession(app, res, acct, config))}`);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/phone/start',
    response: accountResponses.phoneStart,
    auth: 'public',
    workspace: false,
    body: accountRequests.phoneStart,
    handler: async ({ app, req, body }) => {
      const cfg = smsConfig();
      if (!cfg) throw unavailable('phone_not_configured', { message: 'SMSログインは設定されていません' });
      await hitLimit(app, 'otp', req.ip);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await app.store.transact(PLATFORM_WS, (tx) =>
        tx.put(P.phoneCodes, body.phone, { id: body.phone, hash: codeHash(app.secret, body.phone, code), exp: Date.now() + 10 * 60_000, attempts: 0 }),
      );
      if (!(await sendSms(cfg, body.phone, `Kitting Station 確認コード: ${code}`))) throw upstreamFailed('sms_failed');
      return {};
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/phone/verify',
    response: accountResponses.phoneVerify,
    auth: 'public',
    workspace: false,
    body: accountRequests.phoneVerify,
    handler: async ({ app, req, res, body }) => {
      if (!smsConfig()) throw unavailable('phone_not_configured');
      await hitLimit(app, 'otp', req.ip);
      const rec = await app.store.get<Doc>(PLATFORM_WS, P.phoneCodes, body.phone);
      if (!rec || (rec.exp as number) < Date.now() || (rec.attempts as number) >= 5) throw unauthorized('invalid code');
      if (codeHash(app.secret, body.phone, body.code.trim()) !== rec.hash) {
        await app.store.transact(PLATFORM_WS, (tx) => tx.patch(P.phoneCodes, body.phone, { attempts: (rec.attempts as number) + 1 }));
        throw unauthorized('invalid code');
      }
      await app.store.transact(PLATFORM_WS, (tx) => tx.remove(P.phoneCodes, body.phone));
      const acct = await findOrCreate(app, `phone:${body.phone}`, { email: null, phone: body.phone, name: '' });
      const { config } = await readSiteConfig(app);
      return { token: await openSession(app, res, acct, config), account: publicAccount(acct) };
    },
  }),
];
