import { randomBytes } from 'node:crypto';
import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../http/define-route';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../../core/errors';
import { hitLimit } from '../../security/limits';
import { hashPassword } from '../../../core/security/passwords';
import { PLATFORM_WS } from '../platform-collections';
import { readSiteConfig } from '../../security/site-config';
import { mintToken, readToken } from '../../security/tokens';
import type { Doc } from '../../store/types';
import { ACCOUNTS, ALL_EDIT, publicAccount } from '../accounts/accounts.service';
import { openSession } from '../accounts/session.http';
import { assertKeepsOwner, assertOwnerRules, assertSeat, memberWithOwners, normIni, TEAM, TEAM_BY_EMAIL, teamPlan } from './team.service';
import { ROLES, teamRequests, teamResponses } from '../../../../shared/api/contracts/workspace';

const { params: idParams } = teamRequests;
const newMemberId = () => `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

export const teamRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/team/members',
    response: teamResponses.members,
    auth: 'member',
    handler: async ({ app, ws }) => ({ members: await app.store.list(ws, TEAM) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/team/member',
    response: teamResponses.member,
    auth: 'manager',
    body: teamRequests.create,
    handler: async ({ app, ws, req, body }) => {
      if (!body.name.trim()) throw badRequest('name required', { message: '氏名を入力してください' });
      assertOwnerRules(req, null, body.role);
      const member = await app.store.transact(ws, async (tx) => {
        const id = newMemberId();
        return tx.put(TEAM, id, { id, ...body, ini: normIni(body.ini), scopes: body.scopes ?? {} });
      });
      return { member };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/team/member/:id',
    response: teamResponses.member,
    auth: 'manager',
    params: idParams,
    body: teamRequests.patch,
    handler: async ({ app, ws, req, params, body }) => {
      const member = await app.store.transact(ws, async (tx) => {
        const { cur, members } = await memberWithOwners(tx, params.id);
        if (!cur) throw notFound('member not found');
        assertOwnerRules(req, cur, body.role);
        if (body.role) assertKeepsOwner(members, params.id, body.role);
        const patch: Doc = { ...body };
        if (body.ini !== undefined) patch.ini = normIni(body.ini);
        if (body.scopes) patch.scopes = { ...((cur.scopes as Doc) ?? {}), ...body.scopes };
        return tx.patch(TEAM, params.id, patch);
      });
      return { member };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/team/member/:id/delete',
    response: teamResponses.remove,
    auth: 'manager',
    params: idParams,
    handler: async ({ app, ws, req, params }) => {
      await app.store.transact(ws, async (tx) => {
        const { cur, members } = await memberWithOwners(tx, params.id);
        if (!cur) throw notFound('member not found');
        assertOwnerRules(req, cur, null);
        assertKeepsOwner(members, params.id, null);
        await tx.remove(TEAM, params.id);
      });
      return { id: params.id };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/team/plan',
    response: teamResponses.plan,
    auth: 'account',
    handler: async ({ app, ws }) => ({ planKey: await teamPlan({ get: (c, id) => app.store.get(ws, c, id) }) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/team/plan',
    response: teamResponses.plan,
    auth: 'account:manager',
    body: teamRequests.plan,
    handler: async ({ app, ws, req, body }) => {
      if (body.planKey !== 'starter' && body.planKey !== 'pro' && body.planKey !== 'ent') throw badRequest('invalid planKey', { allowed: ['starter', 'pro', 'ent'] });
      const planKey = body.planKey;
      await app.store.transact(ws, (tx) => tx.put('settings', 'teamPlan', { id: 'teamPlan', planKey }));
      return { planKey };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/team/invite',
    response: teamResponses.invite,
    auth: 'account:manager',
    credential: true,
    body: teamRequests.invite,
    handler: async ({ app, ws, req, body }) => {
      const role = (ROLES as readonly unknown[]).includes(body.role) && body.role !== 'owner' ? String(body.role) : 'member';
      const member = await app.store.transact(ws, async (tx) => {
        if ((await tx.find(TEAM, TEAM_BY_EMAIL.field, body.email)).length > 0) throw conflict('already a member', { message: 'このメールアドレスは既に登録されています' });
        await assertSeat(tx);
        const id = newMemberId();
        const name = clip(body.name?.trim() || body.email.split('@')[0], 80);
        return tx.put(TEAM, id, { id, name, ini: normIni(undefined), role, dept: '—', email: body.email, scopes: role === 'viewer' ? {} : ALL_EDIT, status: 'invited', invitedAt: Date.now() });
      });
      const token = mintToken(app.secret, 'invite', { tid: ws, mid: member.id, email: body.email });
      return { inviteUrl: `/invite.html?token=${encodeURIComponent(token)}`, token, member };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/team/accept',
    response: teamResponses.accept,
    auth: 'token',
    workspace: false,
    body: teamRequests.accept,
    handler: async ({ app, req, res, body }) => {
      await hitLimit(app, 'signup', req.ip);
      const inv = readToken(app.secret, 'invite', body.inviteToken);
      if (!inv || typeof inv.tid !== 'string' || typeof inv.mid !== 'string') throw unauthorized('invalid invite', { message: '招待リンクが無効か、有効期限が切れています' });
      if (inv.email !== body.email) throw forbidden('email mismatch', { message: '招待されたメールアドレスで登録してください' });
      const tid = inv.tid;
      const mid = inv.mid;
      const m = await app.store.get<Doc>(tid, TEAM, mid);
      if (!m || m.status !== 'invited') throw unauthorized('invalid invite', { message: 'この招待は使用済みか取り消されています' });
      if (await app.store.get(PLATFORM_WS, ACCOUNTS, body.email)) throw conflict('email already registered');
      const pwHash = await hashPassword(body.password);
      const name = clip(body.name?.trim() || String(m.name), 80);
      const account = await app.store.transact(PLATFORM_WS, async (tx) => {
        if (await tx.get(ACCOUNTS, body.email)) throw conflict('email already registered');
        const now = Date.now();
        return tx.put(ACCOUNTS, body.email, { id: body.email, email: body.email, company: '', name, tenantId: tid, created: now, lastLogin: now, pwHash, tokenVersion: 1 });
      });
      await app.store.transact(tid, async (tx) => {
        const { status: _s, invitedAt: _i, ...rest } = (await tx.get<Doc>(TEAM, mid)) ?? m;
        await tx.put(TEAM, mid, { ...rest, name, account: body.email, joinedAt: Date.now() });
      });
      const { config } = await readSiteConfig(app);
      return { token: await openSession(app, res, account, config), account: publicAccount(account), joinedTenant: tid };
    },
  }),
];

