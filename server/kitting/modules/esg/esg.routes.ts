import { z } from 'zod';
import { jstMonth } from '../../../../shared/dates';
import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../../core/http/define-route';
import { unprocessable } from '../../../core/errors';
import { buildEsgReport, ESG, ESG_SETTINGS_ID } from './esg.service';

const body = z.object(
  {
    scope: z.union([z.string(), z.number()], { error: 'scope must be a string' }).nullish(),
    claim: z.record(z.string(), z.unknown(), { error: 'claim must be an object' }).nullish(),
  },
  { error: 'body must be a JSON object' },
);

export const esgRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/esg/report',
    auth: 'mgmt:view',
    body,
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
