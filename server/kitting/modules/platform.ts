import { createHash } from 'node:crypto';
import type { RouteDef } from '../http/define-route';
import type { SeedSpec } from '../store/seed';
import { accountRoutes } from './accounts/accounts.routes';
import { authMethodRoutes } from './accounts/auth-methods.routes';
import { adminPlatformRoutes } from './admin/admin-platform.routes';
import { adminRoutes } from './admin/admin.routes';
import { configRoutes } from './config/config.routes';
import { portalRoutes } from './portal/portal.routes';
import { teamRoutes } from './team/team.routes';
import { subadminRoutes } from './subadmin/subadmin.routes';
import { noteRoutes } from './notes/notes.routes';
import { fileRoutes } from './files/files.routes';
import { backupRoutes } from './backups/backups.routes';
import { leadRoutes } from './public-forms/leads.routes';
import { signRoutes } from './public-forms/sign.routes';
import { engagementRoutes } from './public-forms/engagement.routes';
import { communityRoutes } from './public-forms/community.routes';
import { providerRoutes } from './providers/providers.routes';
import { advisorRoutes } from './providers/advisor.routes';
import { siteRoutes } from './sites/sites.routes';

/** Routes of the platform domains (accounts, admin, portal, team, sub-admins, public forms, sites; one folder each under server/kitting/modules/), mounted by modules/index.ts. */
export const platformRoutes: RouteDef[] = [
  ...accountRoutes,
  ...authMethodRoutes,
  ...adminRoutes,
  ...adminPlatformRoutes,
  ...portalRoutes,
  ...teamRoutes,
  ...configRoutes,
  ...subadminRoutes,
  ...noteRoutes,
  ...fileRoutes,
  ...backupRoutes,
  ...leadRoutes,
  ...signRoutes,
  ...engagementRoutes,
  ...communityRoutes,
  ...providerRoutes,
  ...advisorRoutes,
  ...siteRoutes,
];

/** Demo data files these domains load into every new workspace. */
export const platformSeeds: SeedSpec[] = [
  {
    file: 'portals.json',
    coll: 'portals',
    // Public status pages are found by slug across all workspaces: every workspace's demo portals get
    // slugs of their own, so one workspace's demo slug never answers with another's figures.
    after: async (tx, docs) => {
      const tag = createHash('sha256').update(tx.ws).digest('hex').slice(0, 4);
      for (const d of docs) await tx.patch('portals', String(d.id), { slug: `${String(d.slug)}-${tag}` });
    },
  },
];
