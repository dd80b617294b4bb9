import { badRequest } from '../../core/errors';
import { verifyPassword } from '../../core/security/passwords';
import type { AgentsContext } from '../context';
import { perIp, route, type AgentRoute } from '../http';
import { billingOf } from '../billing';
import { forgot, getUser, getWorkspace, login, presentUser, register, reset, setPassword, setTheme } from './accounts.service';
import { sendVerification, verifyEmail } from './verification.service';
import { attributeSignup } from '../affiliate/attribution';
import { clearSessionCookie, endRequestSession, mintSession, setSessionCookie } from './session';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup } from './two-factor.service';
import { authResponses } from '../../../shared/api/contracts/agents-accounts';
import { authRequests, code, password, email } from '../../../shared/api/contracts/agents-accounts-requests';

export function authRoutes(ctx: AgentsContext): AgentRoute[] {
  const impersonatorOf = async (id: string) => {
    const op = await getUser(ctx, id);
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
    const u = await getUser(ctx, userId);
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
        await endRequestSession(ctx, req);
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
      handler: async ({ body }) => {
        const v = await verifyEmail(ctx, body.token);
        return { ok: true as const, email: v.email, user: presentUser(ctx, await getUser(ctx, v.userId)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/verify/resend', response: authResponses['POST /api/auth/verify/resend'],
      auth: 'bearer',
      before: limited,
      handler: async ({ caller }) => {
        const u = await getUser(ctx, caller.userId);
        if (u.email_verified !== 1) await mailVerification(u);
        return { ok: true as const, emailVerified: u.email_verified === 1 };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/me', response: authResponses['GET /api/auth/me'],
      auth: 'bearer',
      handler: async ({ caller }) => {
        const u = await getUser(ctx, caller.userId);
        const w = await getWorkspace(ctx, caller.ws);
        return {
          user: presentUser(ctx, u),
          workspace: { id: w.id, name: w.name, tier: w.tier, role: caller.role, created_at: new Date(w.created_at).toISOString() },
          billing: await billingOf(w),
          impersonator: caller.impersonator ? await impersonatorOf(caller.impersonator) : null,
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
        const u = await getUser(ctx, caller.userId);
        if (!(await verifyPassword(body.currentPassword, u.password_hash))) throw badRequest('current password is wrong');
        await setPassword(ctx, u.id, body.password);
        return session(req, res, u.id);
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/2fa/setup', response: authResponses['POST /api/auth/2fa/setup'],
      auth: 'bearer',
      handler: ({ caller }) => startTwoFactorSetup(ctx, caller.userId),
    }),
    route({
      method: 'post',
      path: '/api/auth/2fa/enable', response: authResponses['POST /api/auth/2fa/enable'],
      auth: 'bearer',
      body: authRequests['POST /api/auth/2fa/enable'].body,
      handler: async ({ caller, body }) => {
        await enableTwoFactor(ctx, caller.userId, body.code);
        return { ok: true, enabled: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/auth/2fa/disable', response: authResponses['POST /api/auth/2fa/disable'],
      auth: 'bearer',
      body: authRequests['POST /api/auth/2fa/disable'].body,
      handler: async ({ caller, body }) => {
        await disableTwoFactor(ctx, caller.userId, body.code);
        return { ok: true, enabled: false };
      },
    }),
    route({
      method: 'get',
      path: '/api/auth/2fa/status', response: authResponses['GET /api/auth/2fa/status'],
      auth: 'bearer',
      handler: async ({ caller }) => ({ enabled: (await getUser(ctx, caller.userId)).totp_enabled === 1 }),
    }),
    route({
      method: 'patch',
      path: '/api/auth/theme', response: authResponses['PATCH /api/auth/theme'],
      auth: 'bearer',
      body: authRequests['PATCH /api/auth/theme'].body,
      handler: async ({ caller, body }) => {
        await setTheme(ctx, caller.userId, body.theme);
        return { ok: true, theme: body.theme };
      },
    }),
  ];
}

