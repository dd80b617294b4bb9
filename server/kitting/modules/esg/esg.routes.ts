import { jstMonth } from '../../../../shared/dates';
import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../http/define-route';
import { unprocessable } from '../../../core/errors';
import { buildEsgReport, ESG, ESG_SETTINGS_ID } from './esg.service';
import { esgRequests, esgResponses } from '../../../../shared/api/contracts/workspace';

export const esgRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/esg/report',
    response: esgResponses.report,
    auth: 'mgmt:view',
    body: esgRequests.report,
    handler: async ({ app, ws, body: b }) => {
      const all = await app.store.list(ws, ESG);
      const settingsDoc = all.find((d) => d.id === ESG_SETTINGS_ID);
      const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
      const scopeRaw = b.scope === undefined || b.scope === null ? '' : clip(String(b.scope).trim(), 120);
      const { issues, warnings, doc } = buildEsgReport({
        scope: scopeRaw === '' || scopeRaw === 'center' ? 'center' : scopeRaw,
        months: all.filter((d) => d.id !== ESG_SETTINGS_ID),
        settings: { co2e: num(settingsDoc?.co2e, 0), ewaste: num(settingsDoc?.ewaste, 0) },
        currentMonth: jstMonth(),
        claim: b.claim ?? null,
      });
      if (issues.length) throw unprocessable('esg_check_failed', { issues, warnings });
      return { warnings, doc };
    },
  }),
];
