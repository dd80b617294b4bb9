import type { Request } from 'express';
import type { AppContext } from '../context';
import { forbidden, gone } from '../../core/errors';
import { P, PLATFORM_WS } from '../modules/platform-collections';
import type { Actor, Level, Role, Scope } from '../security/policy';
import { isOwnedWorkspace, memberOf } from '../security/sessions';
import type { Doc } from '../store/types';
import { hashSecret, normaliseCode } from './central';
import { SCHEMA_HEADER, TOKEN_HEADER } from './protocol';
import { centralOf, mapSyncErrors } from './endpoints';

type Scopes = Partial<Record<Scope, Level>>;

/**
 * A bench acts with the role of the person who made its enrolment code: recorded with the code,
 * moved to the bench at enrolment, and re-read on every sync request (a removed or demoted enroller
 * takes the bench's rights along).
 */
const codeKey = (code: string) => `code:${hashSecret(normaliseCode(code))}`;
const benchKey = (ws: string, bench: string) => `bench:${ws}:${bench}`;

export async function recordCodeEnroller(app: AppContext, code: string, actor: Actor): Promise<void> {
  const by = actor.kind === 'member' ? actor.accountId : null;
  const id = codeKey(code);
  await app.store.transact(PLATFORM_WS, (tx) => tx.put(P.benchEnrollers, id, { id, by, ts: Date.now() }));
}

export async function moveEnroller(app: AppContext, code: string, ws: string, bench: string): Promise<void> {
  const from = codeKey(code);
  await app.store.transact(PLATFORM_WS, async (tx) => {
    const rec = await tx.get<Doc>(P.benchEnrollers, from);
    const id = benchKey(ws, bench);
    await tx.put(P.benchEnrollers, id, { id, by: rec?.by ?? null, ts: Date.now() });
    if (rec) await tx.remove(P.benchEnrollers, from);
  });
}

/** The enroller's current role and scopes in the workspace (anonymous workspaces: owner), null when gone. */
async function enrollerAccess(app: AppContext, ws: string, bench: string): Promise<{ role: Role; scopes: Scopes } | null> {
  const rec = await app.store.get<Doc>(PLATFORM_WS, P.benchEnrollers, benchKey(ws, bench));
  const by = typeof rec?.by === 'string' ? rec.by : null;
  if (!by) return { role: (await isOwnedWorkspace(app, ws)) ? 'member' : 'owner', scopes: {} };
  const acct = await app.store.get<Doc>(PLATFORM_WS, P.accounts, by);
  if (!acct || acct.tenantId !== ws) return null;
  const m = await memberOf(app, ws, acct);
  if (!m) return null;
  const scopes = m.scopes && typeof m.scopes === 'object' && !Array.isArray(m.scopes) ? (m.scopes as Scopes) : {};
  return { role: (m.role as Role) ?? 'member', scopes };
}

/** The layer's check for `bench` routes: a valid, unrevoked token whose enroller still belongs. */
export async function authenticateBench(app: AppContext, req: Request): Promise<{ ws: string; bench: string; role: Role | null; scopes: Scopes }> {
  const token = req.headers[TOKEN_HEADER];
  const schema = Number(req.headers[SCHEMA_HEADER]);
  let row: { ws: string; bench: string } | null = null;
  await mapSyncErrors(async () => {
    row = await centralOf(app).authenticate(typeof token === 'string' ? token : undefined, Number.isInteger(schema) ? schema : 0);
    return {};
  });
  const found = row as { ws: string; bench: string } | null;
  if (!found) throw forbidden('bench_token_invalid');
  const access = await enrollerAccess(app, found.ws, found.bench);
  if (!access) throw forbidden('enroller_not_member', { message: 'この作業台を登録した担当者はワークスペースのメンバーではありません' });
  return { ws: found.ws, bench: found.bench, ...access };
}
