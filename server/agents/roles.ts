import { forbidden } from '../core/errors';
import type { Caller } from './context';

/** Workspace roles: the owner, members who edit, viewers who only read. */
export const ROLES = ['owner', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export { ASSIGNABLE_ROLES } from '../../shared/api/contracts/agents-values';

/** Editor: the owner or a member (section 5 of the contract). */
export function requireEditor(caller: Caller): void {
  if (caller.role !== 'owner' && caller.role !== 'member') throw forbidden('editor role required', { role: caller.role, required: 'editor' });
}

export function requireOwner(caller: Caller): void {
  if (caller.role !== 'owner') throw forbidden('workspace owner only', { role: caller.role, required: 'owner' });
}
