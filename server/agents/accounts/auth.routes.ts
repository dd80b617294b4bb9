import { badRequest, conflict } from '../../core/errors';
import { openSecret, sealSecret } from '../channels/secret-box';
import { verifyPassword } from '../../core/security/passwords';
import type { AgentsContext } from '../context';
import { perIp, route, type AgentRoute } from '../http';
import { billingOf } from '../billing';
import { forgot, getUser, getWorkspace, login, presentUser, register, reset, setPassword } from './accounts.service';
import { sendVerification, verifyEmail } from './verification.service';
import { endSession } from '../../core/security/sql-sessions';
import { attributeSignup } from '../affiliate/attribution';
import { clearSessionCookie, mintSession, requestSession, setSessionCookie } from './session';
import { checkTotp, newTotpSecret, otpauthUri } from './totp';
import { authResponses } from '../../../shared/api/contracts/agents-accounts';
import { authRequests, code, password, email } from '../../../shared/api/contracts/agents-accounts-requests';

export function authRoutes(ctx: AgentsContext): AgentRoute[] {
  const impersonatorOf = (id: string) => {
    const op = getUser(ctx, id);
    return { id: op.id, email: op.email, name: op.name };
  };
  const limited = perIp(ctx.limits.auth);
  const mailVerification = async (u: { id: string; email: string }) => {
    try {
      await sendVerification(ctx, u);
    } catch (err) {
      ctx.log(`verification mail failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const session = async (req: Parameters<typeof setSessionCookie>[0], res: Parameters<typeof setSessionCookie>[1], userId: string) => {
    const u = getUser(ctx, userId);
    const token = await mintSession(ctx, u.id, u.token_version);
    setSessionCookie(req, res, token);
    return { user: presentUser(ctx, u), token };
  };
  return [
    route({
      method: 'post',
      path: '/api/auth/register', response: authResponses['POST /api/auth/register'],
      auth: 'public',
      before: limited,
      body: authRequests['POST /api/auth/register'].body,
      handler: async ({ body, req, res }) => {
        const u = await register(ctx, body.email, body.password, body.name ?? '', body.invite);
        await attributeSignup(ctx, req, u.id);
        if (u.email_verified !== 1) await mailVerification(u);
        return session(req, res, u.id);
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/login', response: authResponses['POST /api/auth/login'],
      auth: 'public',
      before: limited,
      body: authRequests['POST /api/auth/login'].body,
      handler: async ({ body, req, res }) => {
        const u = await login(ctx, body.email, body.password, body.code);
        return session(req, res, u.id);
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/logout', response: authResponses['POST /api/auth/logout'],
      auth: 'public',
      handler: async ({ req, res }) => {
        // The token's session ends: the same token (Bearer or cookie) answers 401 from the next request on.
        endSession(ctx.legacyDb, await requestSession(ctx, req));
        clearSessionCookie(res);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/verify', response: authResponses['POST /api/auth/verify'],
      auth: 'public',
      before: limited,
      body: authRequests['POST /api/auth/verify'].body,
      handler: ({ body }) => {
        const v = verifyEmail(ctx, body.token);
        return { ok: true as const, email: v.email, user: presentUser(ctx, getUser(ctx, v.userId)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/verify/resend', response: authResponses['POST /api/auth/verify/resend'],
      auth: 'bearer',
      before: limited,
      handler: async ({ caller }) => {
        const u = getUser(ctx, caller.userId);
        if (u.email_verified !== 1) await mailVerification(u);
        return { ok: true as const, emailVerified: u.email_verified === 1 };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/me', response: authResponses['GET /api/auth/me'],
      auth: 'bearer',
      handler: ({ caller }) => {
        const u = getUser(ctx, caller.userId);
        const w = getWorkspace(ctx, caller.ws);
        return {
          user: presentUser(ctx, u),
          workspace: { id: w.id, name: w.name, tier: w.tier, role: caller.role, created_at: new Date(w.created_at).toISOString() },
          billing: billingOf(w),
          impersonator: caller.impersonator ? impersonatorOf(caller.impersonator) : null,
        };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/forgot', response: authResponses['POST /api/auth/forgot'],
      auth: 'public',
      before: limited,
      body: authRequests['POST /api/auth/forgot'].body,
      handler: async ({ body }) => {
        if (body.email) {
          try {
            await forgot(ctx, body.email);
          } catch (err) {
            ctx.log(`reset mail failed: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/reset', response: authResponses['POST /api/auth/reset'],
      auth: 'public',
      before: limited,
      body: authRequests['POST /api/auth/reset'].body,
      handler: async ({ body, res }) => {
        await reset(ctx, body.token, body.password);
        clearSessionCookie(res);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/password', response: authResponses['POST /api/auth/password'],
      auth: 'bearer',
      body: authRequests['POST /api/auth/password'].body,
      handler: async ({ caller, body, req, res }) => {
        const u = getUser(ctx, caller.userId);
        if (!(await verifyPassword(body.currentPassword, u.password_hash))) throw badRequest('current password is wrong');
        await setPassword(ctx, u.id, body.password);
        return session(req, res, u.id);
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/2fa/setup', response: authResponses['POST /api/auth/2fa/setup'],
      auth: 'bearer',
      handler: ({ caller }) => {
        const u = getUser(ctx, caller.userId);
        if (u.totp_enabled) throw conflict('two-factor is already enabled');
        const secret = newTotpSecret();
        ctx.legacyDb.prepare('UPDATE users SET totp_pending = ? WHERE id = ?').run(sealSecret(ctx.config, secret), u.id);
        return { secret, otpauth: otpauthUri(secret, u.email) };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/2fa/enable', response: authResponses['POST /api/auth/2fa/enable'],
      auth: 'bearer',
      body: authRequests['POST /api/auth/2fa/enable'].body,
      handler: ({ caller, body }) => {
        const u = getUser(ctx, caller.userId);
        if (u.totp_enabled) throw conflict('two-factor is already enabled');
        if (!u.totp_pending) throw badRequest('run 2fa setup first');
        if (!checkTotp(openSecret(ctx.config, u.totp_pending), body.code)) throw badRequest('invalid two-factor code');
        ctx.legacyDb.prepare('UPDATE users SET totp_secret = totp_pending, totp_pending = NULL, totp_enabled = 1 WHERE id = ?').run(u.id);
        return { ok: true, enabled: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/2fa/disable', response: authResponses['POST /api/auth/2fa/disable'],
      auth: 'bearer',
      body: authRequests['POST /api/auth/2fa/disable'].body,
      handler: ({ caller, body }) => {
        const u = getUser(ctx, caller.userId);
        if (!u.totp_enabled || !u.totp_secret) throw badRequest('two-factor is not enabled');
        if (!checkTotp(openSecret(ctx.config, u.totp_secret), body.code)) throw badRequest('invalid two-factor code');
        ctx.legacyDb.prepare('UPDATE users SET totp_secret = NULL, totp_enabled = 0 WHERE id = ?').run(u.id);
        return { ok: true, enabled: false };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/2fa/status', response: authResponses['GET /api/auth/2fa/status'],
      auth: 'bearer',
      handler: ({ caller }) => ({ enabled: getUser(ctx, caller.userId).totp_enabled === 1 }),
    }),
    route({
      method: 'patch',
      path: '/api/auth/theme', response: authResponses['PATCH /api/auth/theme'],
      auth: 'bearer',
      body: authRequests['PATCH /api/auth/theme'].body,
      handler: ({ caller, body }) => {
        ctx.legacyDb.prepare('UPDATE users SET theme = ? WHERE id = ?').run(body.theme, caller.userId);
        return { ok: true, theme: body.theme };
      },
    }),
  ];
}

