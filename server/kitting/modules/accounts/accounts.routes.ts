import { createHmac, randomInt } from 'node:crypto';
import { defineRoute } from '../../http/define-route';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../../core/errors';
import { optionalSession, principalOf } from '../../security/auth';
import { hitLimit } from '../../security/limits';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from '../../../core/security/passwords';
import { rehash } from '../../security/rehash';
import { P, PLATFORM_WS } from '../platform-collections';
import { randomKey } from '../../../core/ids';
import { securityEvent } from '../../security/activity';
import { registerWorkspace } from '../../security/tenants';
import { readSiteConfig } from '../../security/site-config';
import type { Doc } from '../../store/types';
import {
  ACCOUNTS, addTeamMember, newWorkspace, publicAccount,
  signInFailed, signInGate, signInOk, touchLogin,
} from './accounts.service';
import { closeSession, openSession } from './session.http';
import { resolveWorkspace } from '../../http/workspace';
import { sendMail } from './mail';
import { accountRequests, accountResponses } from '../../../../shared/api/contracts/accounts';

const { signup: signupBody, login: loginBody, verify: verifyBody, password: passwordBody } = accountRequests;

const CHALLENGE_TTL = 10 * 60_000;
const codeHash = (secret: Buffer, id: string, code: string) => createHmac('sha256', secret).update(`otp\n${id}\n${code}`).digest('hex');

export const accountRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/account/signup',
    response: accountResponses.signup,
    auth: 'public',
    workspace: false,
    handler: async ({ app, req, res, body: raw }) => {
      await hitLimit(app, 'signup', req.ip);
      const { config } = await readSiteConfig(app);
      if (!config.registrationOpen) throw forbidden('registration closed', { message: '現在、新規登録を受け付けていません' });
      const parsed = signupBody.safeParse(raw);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'invalid request');
      const body = parsed.data;
      if (await app.store.get(PLATFORM_WS, ACCOUNTS, body.email)) {
        throw conflict(config.secGenericErrors ? 'signup failed' : 'email already registered', { message: 'このメールアドレスは登録できません' });
      }
      const pwHash = await hashPassword(body.password);
      // Adopt the browser's anonymous workspace; a workspace someone already owns is never shared.
      let ws = await resolveWorkspace(app, req, res);
      const tenant = await app.store.get<Doc>(PLATFORM_WS, P.tenants, ws);
      if (app.mode === 'bench') {
        // The bench has exactly one workspace: the first account adopts it.
        if (tenant?.owner) throw conflict('workspace already registered', { message: 'この端末は登録済みです。ログインしてください' });
      } else if (!tenant || tenant.kind !== 'anonymous' || tenant.owner) ws = await newWorkspace(app, 'account');
      const account = await app.store.transact(PLATFORM_WS, async (tx) => {
        if (await tx.get(ACCOUNTS, body.email)) throw conflict('email already registered');
        const now = Date.now();
        return tx.put(ACCOUNTS, body.email, {
          id: body.email, email: body.email, company: body.company, name: body.name, tenantId: ws,
          created: now, lastLogin: now, pwHash, tokenVersion: 1,
        });
      });
      await registerWorkspace(app, ws, 'account', { kind: 'account', owner: body.email, email: body.email, name: body.company || '新規テナント' });
      await app.store.transact(ws, (tx) => addTeamMember(tx, { name: body.name, email: body.email, role: 'owner', account: body.email }));
      return { token: await openSession(app, res, account, config), account: publicAccount(account), adoptedTenant: ws };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/login',
    response: accountResponses.login,
    auth: 'public',
    workspace: false,
    body: loginBody,
    handler: async ({ app, req, res, body }) => {
      await hitLimit(app, 'signIn', req.ip);
      const key = `acct:${body.email}`;
      const cfg = await signInGate(app, req, key);
      if (!cfg.signinEnabled) throw forbidden('signin disabled', { message: '現在ログインを停止しています' });
      const acct = await app.store.get<Doc>(PLATFORM_WS, ACCOUNTS, body.email);
      if (!acct) {
        await burnPasswordCheck(body.password);
        return signInFailed(app, req, key, cfg, 'invalid credentials');
      }
      if (!(await verifyPassword(body.password, acct.pwHash))) return signInFailed(app, req, key, cfg, 'invalid credentials');
      await signInOk(app, req, key);
      if (needsRehash(acct.pwHash)) await rehash(app, P.accounts, String(acct.id), body.password);
      if (cfg.sec2FA) {
        const id = randomKey('ch-');
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        await app.store.transact(PLATFORM_WS, (tx) =>
          tx.put(P.challenges, id, { id, email: body.email, hash: codeHash(app.secret, id, code), exp: Date.now() + CHALLENGE_TTL, attempts: 0 }),
        );
        await sendMail(app, { to: body.email, subject: 'ログイン確認コード', text: `確認コード: ${code}（10分間有効）` });
        return { mfaRequired: true, challenge: id };
      }
      const fresh = await touchLogin(app, String(acct.id));
      if (cfg.secLoginNotify) await sendMail(app, { to: body.email, subject: 'ログインのお知らせ', text: `新しいログインがありました（${req.ip ?? ''}）` });
      return { token: await openSession(app, res, fresh, cfg), account: publicAccount(fresh) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/login/verify',
    response: accountResponses.verify,
    auth: 'public',
    workspace: false,
    body: verifyBody,
    handler: async ({ app, req, res, body }) => {
      await hitLimit(app, 'otp', req.ip);
      const { config } = await readSiteConfig(app);
      const ch = await app.store.get<Doc>(PLATFORM_WS, P.challenges, body.challenge);
      const invalid = () => unauthorized('invalid code', { message: '確認コードが正しくないか、有効期限が切れています' });
      if (!ch || ch.email !== body.email || (ch.exp as number) < Date.now() || (ch.attempts as number) >= 5) throw invalid();
      if (codeHash(app.secret, body.challenge, body.code.trim()) !== ch.hash) {
        await app.store.transact(PLATFORM_WS, (tx) => tx.patch(P.challenges, body.challenge, { attempts: (ch.attempts as number) + 1 }));
        await securityEvent(app, 'otp_failed', { email: body.email, ip: req.ip ?? '' });
        throw invalid();
      }
      // Single use: a code that worked once never works again.
      await app.store.transact(PLATFORM_WS, (tx) => tx.remove(P.challenges, body.challenge));
      const acct = await app.store.get<Doc>(PLATFORM_WS, ACCOUNTS, body.email);
      if (!acct) throw invalid();
      const fresh = await touchLogin(app, String(acct.id));
      return { token: await openSession(app, res, fresh, config), account: publicAccount(fresh) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/logout',
    response: accountResponses.logout,
    auth: 'public',
    workspace: false,
    handler: async ({ app, req, res }) => {
      await closeSession(app, req, res);
      return {};
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/account/me',
    response: accountResponses.me,
    auth: 'public',
    handler: async ({ app, req, ws }) => {
      const s = optionalSession(req);
      if (!s || !s.accountId) return { signedIn: false, tenantId: ws, ...(s?.assist ? { assist: true } : {}) };
      const acct = await app.store.get<Doc>(PLATFORM_WS, ACCOUNTS, s.accountId);
      if (!acct) return { signedIn: false, tenantId: ws };
      return { signedIn: true, account: publicAccount(acct), ...(s.assist ? { assist: true } : {}) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/password',
    response: accountResponses.password,
    auth: 'account',
    workspace: false,
    body: passwordBody,
    handler: async ({ app, req, res, body }) => {
      const p = principalOf(req);
      if (p.kind !== 'session' || !p.accountId) throw unauthorized();
      const id = p.accountId;
      if (p.assist) throw forbidden('not allowed in assist mode', { message: 'サポートモードではパスワードを変更できません' });
      const acct = await app.store.get<Doc>(PLATFORM_WS, ACCOUNTS, id);
      if (!acct || !(await verifyPassword(body.current, acct.pwHash))) {
        throw unauthorized('wrong password', { message: '現在のパスワードが違います' });
      }
      const pwHash = await hashPassword(body.next);
      const fresh = await app.store.transact(PLATFORM_WS, async (tx) => {
        const cur = await tx.get<Doc>(ACCOUNTS, id);
        if (!cur) throw notFound('account not found');
        return (await tx.patch(ACCOUNTS, id, { pwHash, tokenVersion: (cur.tokenVersion as number) + 1 })) as Doc;
      });
      await securityEvent(app, 'password_changed', { account: id });
      const { config } = await readSiteConfig(app);
      return { token: await openSession(app, res, fresh, config) };
    },
  }),
];
