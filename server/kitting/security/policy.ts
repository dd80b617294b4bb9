/**
 * Who may call what: every route's `auth` names one entry of this table, and the HTTP layer checks it
 * (server/core/security/authorize.ts) before the route's input is read or its handler runs.
 *
 *   access               who passes
 *   -------------------  ------------------------------------------------------------------------------
 *   public               anyone (sign-in, public forms, health, published sites)
 *   token                anyone holding the token the route reads (portal link, enrolment code, OAuth state)
 *   local                the bench's own operator (bench mode only; central answers 404)
 *   member               any member of the workspace, viewers included
 *   <scope>:view         a member whose level in that scope is view or edit
 *   <scope>:edit         a member whose level in that scope is edit
 *   manager              the workspace's owner or admin
 *   account              a signed-in account (not an anonymous browser workspace)
 *   account:manager      a signed-in owner or admin
 *   admin                the platform admin
 *   subadmin             the platform admin or an active sub-admin
 *   subadmin:canDelete   the platform admin or a sub-admin holding the canDelete permission
 *   bench                an enrolled, unrevoked bench token (acting as the role of whoever enrolled it)
 *
 * Levels per scope (mgmt, ops, sales, support, settings), from the member's role and scopes:
 *   owner, admin   edit everywhere
 *   exec, member   the member's scope value; a scope left unset is view
 *   viewer         at most view; a scope set to none stays none
 * The holder of an anonymous browser workspace (no account yet) and the bench's local operator act as owner.
 */
const SCOPES = ['mgmt', 'ops', 'sales', 'support', 'settings'] as const;
export type Scope = (typeof SCOPES)[number];
export type Level = 'none' | 'view' | 'edit';
export type Role = 'owner' | 'admin' | 'exec' | 'member' | 'viewer';

export type Access =
  | 'public'
  | 'token'
  | 'local'
  | 'member'
  | `${Scope}:view`
  | `${Scope}:edit`
  | 'manager'
  | 'account'
  | 'account:manager'
  | 'admin'
  | 'subadmin'
  | 'subadmin:canDelete'
  | 'bench';

export const ACCESS_VALUES: readonly Access[] = [
  'public', 'token', 'local', 'member', 'manager', 'account', 'account:manager', 'admin', 'subadmin', 'subadmin:canDelete', 'bench',
  ...SCOPES.flatMap((s) => [`${s}:view`, `${s}:edit`] as const),
];

/** Who is calling, as the authorization layer resolved it. */
export type Actor =
  | { kind: 'none' }
  | { kind: 'local' }
  | { kind: 'anonymous'; ws: string }
  | { kind: 'member'; ws: string; role: Role; scopes: Partial<Record<Scope, Level>>; accountId: string | null; email: string | null; memberId: string | null; assist: boolean }
  | { kind: 'admin' }
  | { kind: 'subadmin'; id: string; canDelete: boolean }
  | { kind: 'bench'; ws: string; bench: string; role: Role | null; scopes?: Partial<Record<Scope, Level>> };

const RANK: Record<Level, number> = { none: 0, view: 1, edit: 2 };

/** A member's level in one scope (see the table above). */
export function levelOf(role: Role, scopes: Partial<Record<Scope, Level>>, scope: Scope): Level {
  if (role === 'owner' || role === 'admin') return 'edit';
  const set = scopes[scope];
  const given: Level = set === 'none' || set === 'view' || set === 'edit' ? set : 'view';
  return role === 'viewer' && given === 'edit' ? 'view' : given;
}

/** Role and scopes an actor carries inside its workspace (anonymous holder and local operator: owner). */
export function workspaceRole(a: Actor): { role: Role; scopes: Partial<Record<Scope, Level>> } | null {
  if (a.kind === 'anonymous' || a.kind === 'local') return { role: 'owner', scopes: {} };
  if (a.kind === 'member') return { role: a.role, scopes: a.scopes };
  if (a.kind === 'bench' && a.role) return { role: a.role, scopes: a.scopes ?? {} };
  return null;
}

const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** Does this actor satisfy this access? The one rule the layer and the role × route test both use. */
export function allows(access: Access, a: Actor): boolean {
  switch (access) {
    case 'public':
    case 'token':
      return true;
    case 'local':
      return a.kind === 'local';
    case 'admin':
      return a.kind === 'admin';
    case 'subadmin':
      return a.kind === 'admin' || a.kind === 'subadmin';
    case 'subadmin:canDelete':
      return a.kind === 'admin' || (a.kind === 'subadmin' && a.canDelete);
    case 'bench':
      return a.kind === 'bench';
    case 'account':
      return a.kind === 'member' && a.accountId !== null;
    case 'account:manager':
      return a.kind === 'member' && a.accountId !== null && (a.role === 'owner' || a.role === 'admin');
    default:
      break;
  }
  const wr = a.kind === 'bench' ? null : workspaceRole(a);
  if (!wr) return false;
  if (access === 'member') return true;
  if (access === 'manager') return wr.role === 'owner' || wr.role === 'admin';
  const [scope, need] = access.split(':');
  if (!scope || !isScope(scope)) return false;
  return RANK[levelOf(wr.role, wr.scopes, scope)] >= RANK[need === 'edit' ? 'edit' : 'view'];
}

/** Accesses that act inside the caller's workspace (the layer resolves the workspace for them). */
export function isWorkspaceAccess(access: Access): boolean {
  return access === 'member' || access === 'manager' || access === 'account' || access === 'account:manager' || access.includes(':view') || access.includes(':edit');
}
