import { looseNumber } from '../../../../shared/fields';
import { jstDate } from '../../../../shared/dates';
import { defineRoute } from '../../http/define-route';
import { collectionSchema, fixedKeys, stamp } from '../../http/collection-schema';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import { DOCK_RESERVATIONS } from '../dock/dock.service';
import { JOBS } from '../jobs/jobs.service';
import { readCompany } from '../settings/settings.service';
import { CAPACITY, CAPACITY_LOAD, CONFIG_ID, CONFIG_KEYS, configFields, configOf, LOAD_NUMBERS, mergeConfig, weekView } from './capacity.service';
import { capacityLoadFields, capacityRequests, capacityResponses } from '../../../../shared/api/contracts/backoffice';

/** Pushed load entries pass the load routes' field rules; created and updated are the server's stamps. */
export const capacityLoadSchema = collectionSchema(CAPACITY_LOAD, capacityLoadFields, { created: stamp(), updated: stamp() });
/** The config record holds the numbers the config route stores (finite, ≥ 0) and its stamp. */
export const capacityConfigSchema = fixedKeys(collectionSchema(CAPACITY, configFields, { updated: stamp() }), [CONFIG_ID]);
const { config: configBody, createLoad, patchLoad, params: idParams, view: viewQuery } = capacityRequests;

function checkDate(date: string | undefined): void {
  if (date === undefined) return;
  const d = new Date(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date || date < '2000-01-01' || date > '2099-12-25') {
    throw badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
  }
}

/** Config numbers: each sent key must be a finite number ≥ 0 (else 400, nothing stored). */
function checkConfig(body: Record<string, unknown>): void {
  const bad = CONFIG_KEYS.filter((k) => {
    const v = body[k];
    if (v === undefined || v === null) return false;
    const n = looseNumber(v);
    return !(Number.isFinite(n) && n >= 0);
  });
  if (bad.length) throw badRequest('invalid config', { message: `${bad.join(', ')} は0以上の数値で指定してください`, fields: bad });
}

const byDate = (a: Doc, b: Doc) => String(a.date).localeCompare(String(b.date)) || String(a.id).localeCompare(String(b.id));
const loadNotFound = () => notFound('load entry not found');

export const capacityRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/capacity',
    response: capacityResponses.view,
    auth: 'ops:view',
    query: viewQuery,
    handler: async ({ app, ws, query }) => {
      const from = query.from ?? jstDate();
      checkDate(from);
      const config = configOf(await app.store.get(ws, CAPACITY, CONFIG_ID));
      const load = (await app.store.list(ws, CAPACITY_LOAD)).sort(byDate);
      const [jobs, dock, company] = await Promise.all([app.store.list(ws, JOBS), app.store.list(ws, DOCK_RESERVATIONS), readCompany(app.store, ws)]);
      const calendar = { workdays: company.workdays, holidays: company.holidays, closedDates: company.closedDates };
      return { config, load, calendar, ...weekView(config, load, from, { jobs, dock }, calendar, jstDate()) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/capacity/config',
    response: capacityResponses.config,
    auth: 'ops:edit',
    body: configBody,
    handler: async ({ app, ws, body }) => {
      checkConfig(body);
      const config = await app.store.transact(ws, async (tx) => {
        const next = mergeConfig(configOf(await tx.get(CAPACITY, CONFIG_ID)), body);
        await tx.put(CAPACITY, CONFIG_ID, { id: CONFIG_ID, ...next });
        return next;
      });
      return { config };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/capacity/load',
    response: capacityResponses.load,
    auth: 'ops:edit',
    body: createLoad,
    handler: async ({ app, ws, body }) => {
      const date = body.date || jstDate();
      checkDate(date);
      const entry = await app.store.transact(ws, async (tx) => {
        const id = (await issueNumber(tx, LOAD_NUMBERS)).value;
        return tx.create(CAPACITY_LOAD, id, { id, ...body, date, created: Date.now() });
      });
      return { entry };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/capacity/load/:id',
    response: capacityResponses.load,
    auth: 'ops:edit',
    params: idParams,
    body: patchLoad,
    handler: async ({ app, ws, params, body }) => {
      checkDate(body.date);
      const entry = await app.store.transact(ws, async (tx) => {
        const updated = await tx.patch(CAPACITY_LOAD, params.id, { ...body, updated: Date.now() });
        if (!updated) throw loadNotFound();
        return updated;
      });
      return { entry };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/capacity/load/:id/delete',
    response: capacityResponses.remove,
    auth: 'ops:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      if (!(await app.store.transact(ws, (tx) => tx.remove(CAPACITY_LOAD, params.id)))) throw loadNotFound();
      return { id: params.id };
    },
  }),
];
