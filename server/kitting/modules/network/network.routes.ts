import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import { networkResponses } from '../../../../shared/api/contracts/workspace';
import { NETWORK_DEALS, DEAL_NUMBERS, CENTERS, NETWORK, OEM_ID, STATUS_BY_DIR, readUnits, readRate, newestFirst, listDeals, readPlan, oemOf, dealBody, centerBody, oemBody, centerParams } from './network.service';

export const networkRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/network/deals',
    response: networkResponses.deals,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ deals: (await app.store.list(ws, NETWORK_DEALS)).sort(newestFirst) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/deal',
    response: networkResponses.deal,
    auth: 'sales:edit',
    body: dealBody,
    handler: async ({ app, ws, body }) => {
      const units = readUnits(body.units);
      const rate = readRate(body.rate);
      return app.store.transact(ws, async (tx) => {
        const { n: seq } = await issueNumber(tx, DEAL_NUMBERS);
        const deal = {
          id: randomKey('nd-', 4),
          seq,
          dir: body.dir,
          partner: body.partner,
          kind: body.kind,
          units,
          period: body.period,
          rate,
          status: body.status?.trim() || STATUS_BY_DIR[body.dir],
          created: Date.now(),
        };
        await tx.create(NETWORK_DEALS, deal.id, deal);
        return { deal, deals: await listDeals(tx) };
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/network/centers',
    response: networkResponses.centers,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => ({ centers: await app.store.list(ws, CENTERS) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/center',
    response: networkResponses.center,
    auth: 'mgmt:edit',
    body: centerBody,
    handler: async ({ app, ws, body }) =>
      app.store.transact(ws, async (tx) => {
        const { id: givenId, ...fields } = body;
        const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
        const existing = givenId ? await tx.get(CENTERS, givenId) : null;
        let center: Doc;
        if (existing && givenId) {
          if (present.name !== undefined && !String(present.name).trim()) throw badRequest('name required', { message: 'センター名(name)を入力してください' });
          center = (await tx.patch(CENTERS, givenId, { ...present, updated: Date.now() })) ?? existing;
        } else {
          const name = String(present.name ?? '').trim();
          if (!name) throw badRequest('name required', { message: 'センター名(name)を入力してください' });
          const id = randomKey('c-', 4);
          center = await tx.put(CENTERS, id, { id, name, region: String(present.region ?? '') || '—', mdm: present.mdm ?? [], slots: present.slots ?? 0, shelf: present.shelf ?? 0, rate: present.rate ?? 0, certs: present.certs ?? [] });
        }
        return { center, centers: await tx.list(CENTERS) };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/center/:id/delete',
    response: networkResponses.removeCenter,
    auth: 'mgmt:edit',
    params: centerParams,
    handler: async ({ app, ws, params }) =>
      app.store.transact(ws, async (tx) => {
        if (!(await tx.remove(CENTERS, params.id))) throw notFound('center not found');
        return { id: params.id, centers: await tx.list(CENTERS) };
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/network/oem',
    response: networkResponses.oem,
    auth: 'settings:view',
    handler: async ({ app, ws }) => ({ oem: oemOf(await app.store.get(ws, NETWORK, OEM_ID)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/network/oem',
    response: networkResponses.oem,
    auth: 'settings:edit',
    body: oemBody,
    handler: async ({ app, ws, body }) => {
      const oem = { brand: body.brand ?? '', logo: body.logo ?? '', domain: body.domain ?? '', plan: readPlan(body.plan) };
      await app.store.transact(ws, (tx) => tx.put(NETWORK, OEM_ID, { id: OEM_ID, ...oem, updated: Date.now() }));
      return { oem };
    },
  }),
];
