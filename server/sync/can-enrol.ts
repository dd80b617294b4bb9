import type { Request } from 'express';
import type { AppContext } from '../context';
import { sessionPrincipal } from '../security/auth';
import type { Doc } from '../store/types';

/** Role of the account session behind a request in a workspace ('owner', 'admin', ...), or null. */
export type SessionRoleResolver = (app: AppContext, req: Request, ws: string) => Promise<string | null>;

type TeamMember = Doc & { email?: unknown; role?: unknown };

/** Default: the Bearer session's account must belong to this workspace; its role is its team member's. */
const teamRole: SessionRoleResolver = async (app, req, ws) => {
  const p = await sessionPrincipal(app, req);
  if (!p || p.kind !== 'session' || p.tenantId !== ws || !p.email) return null;
  const members = await app.store.list<TeamMember>(ws, 'team');
  const me = members.find((m) => typeof m.email === 'string' && m.email.toLowerCase() === p.email?.toLowerCase());
  return typeof me?.role === 'string' ? me.role : null;
};

let sessionRole: SessionRoleResolver = teamRole;

/** The accounts module may plug in its own session-role lookup (one call at start). */
export function registerSessionRole(fn: SessionRoleResolver): void {
  sessionRole = fn;
}

/**
 * Who may create bench enrolment codes and manage benches: an owner or admin session where the
 * workspace has accounts (team members with an e-mail); the kit_tid holder of a workspace without.
 */
export async function canEnrol(c: { app: AppContext; req: Request; ws: string }): Promise<boolean> {
  const members = await c.app.store.list<TeamMember>(c.ws, 'team');
  const hasAccounts = members.some((m) => typeof m.email === 'string' && m.email !== '');
  if (!hasAccounts) return true;
  const role = await sessionRole(c.app, c.req, c.ws);
  return role === 'owner' || role === 'admin';
}
