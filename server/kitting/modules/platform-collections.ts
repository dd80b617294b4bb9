import { P as CORE_PLATFORM } from '../security/platform';

export { isReservedWorkspace, PLATFORM_WS, requireCentral } from '../security/platform';

/**
 * Collections of the platform workspace: the core's own (tenants, accounts, sessions, sub-admins,
 * admin config, activity and security events) and the kitting app's (published sites and their index,
 * portal slugs and revocations, backups, notes, files, sign-in challenges and phone codes, deletion
 * requests, connections, the mail outbox, bench enrollers).
 */
export const P = {
  ...CORE_PLATFORM,
  backups: 'backups',
  outbox: 'outbox',
  challenges: 'challenges',
  phoneCodes: 'phoneCodes',
  deleteRequests: 'deleteRequests',
  portalRevocations: 'portalRevocations',
  notes: 'notes',
  files: 'files',
  sites: 'sites',
  connections: 'connections',
  portalSlugs: 'portalSlugs',
  benchEnrollers: 'benchEnrollers',
  siteIndex: 'siteIndex',
} as const;
