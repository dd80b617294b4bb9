import type { AppContext } from '../context';
import { notFound } from '../../core/errors';

/**
 * Platform-level data (tenants, accounts, sessions, sub-admins, admin config, activity and security
 * events; an app adds its own collections beside these) lives in this reserved workspace: written
 * through the Store API so it is change-logged, but never reachable through kit_tid or a session
 * (see isReservedWorkspace).
 */
export const PLATFORM_WS = '_platform';

export const P = {
  tenants: 'tenants',
  accounts: 'accounts',
  subadmins: 'subadmins',
  config: 'siteConfig',
  activity: 'activity',
  security: 'securityEvents',
  sessions: 'sessions',
} as const;

/** Ids starting with `_` are reserved for platform data and never resolve as a workspace. */
export function isReservedWorkspace(id: string): boolean {
  return id.startsWith('_');
}

/** Platform routes answer only on the central server; the bench says not_found. */
export function requireCentral(app: AppContext): void {
  if (app.mode !== 'central') throw notFound('not_found');
}
