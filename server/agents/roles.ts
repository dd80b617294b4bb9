import { forbidden } from '../core/errors';
import type { Caller } from './context';
import type { AgentAuth } from './request';

/** Workspace roles: the owner, members who edit, viewers who only read. */
const ROLES = ['owner', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Does this caller satisfy this access (request.ts)? The one rule the layer and the role × route test both use. */
export function allows(auth: AgentAuth, caller: Pick<Caller, 'userId' | 'role' | 'admin'>): boolean {
  switch (auth) {
    case 'public':
      return true;
    case 'bearer':
      return caller.userId !== '';
    case 'editor':
      return caller.role === 'owner' || caller.role === 'member';
    case 'owner':
      return caller.role === 'owner';
    case 'operator':
      return caller.admin;
  }
}

/** The authorization layer: 403 naming the caller's role and the one the route declares. */
export function authorize(auth: AgentAuth, caller: Caller): void {
  if (allows(auth, caller)) return;
  if (auth === 'operator') throw forbidden('admin only');
  if (auth === 'owner') throw forbidden('workspace owner only', { role: caller.role, required: 'owner' });
  throw forbidden('editor role required', { role: caller.role, required: 'editor' });
}

export function requireOwner(caller: Caller): void {
  authorize('owner', caller);
}
