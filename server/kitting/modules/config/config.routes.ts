import { defineRoute } from '../../http/define-route';
import { P, PLATFORM_WS } from '../platform-collections';
import { PUBLIC_KEYS, readSiteConfig } from '../../security/site-config';
import type { Doc } from '../../store/types';
import { configResponses } from '../../../../shared/api/contracts/workspace';

export const configRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/config',
    response: configResponses.config,
    auth: 'public',
    handler: async ({ app, ws, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      const { config: all } = await readSiteConfig(app);
      const config: Doc = {};
      for (const k of PUBLIC_KEYS) config[k] = all[k];
      const t = await app.store.get<Doc>(PLATFORM_WS, P.tenants, ws);
      if (t?.kind === 'anonymous' && !t.owner) Object.assign(config, { demoEnabled: true, demoTenant: true });
      return { config };
    },
  }),
];
