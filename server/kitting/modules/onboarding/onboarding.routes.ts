import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { clip } from '../../../../shared/fields';
import type { Doc } from '../../store/types';
import { DEVICE_REQUESTS, ONBOARDING, PROJECTS_ID, randomLead, readProjects, STATUSES, type Project } from './onboarding.service';
import { onboardingRequests, onboardingResponses } from '../../../../shared/api/contracts/workspace';

const stateOf = (d: Doc | null) => ({
  sel: typeof d?.sel === 'string' ? d.sel : '',
  tab: d?.tab === 'emp' ? 'emp' : 'cust',
  projects: (d?.projects as Record<string, Project> | undefined) ?? {},
});

const { create: requestBody, update: updateBody, params: requestParams, projects: projectsBody } = onboardingRequests;

export const onboardingRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/onboarding/projects',
    response: onboardingResponses.projects,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ state: stateOf(await app.store.get(ws, ONBOARDING, PROJECTS_ID)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/onboarding/projects',
    response: onboardingResponses.projects,
    auth: 'ops:edit',
    body: projectsBody,
    handler: async ({ app, ws, body }) => {
      if (!body.projects || typeof body.projects !== 'object' || Array.isArray(body.projects)) {
        throw badRequest('projects required', { message: 'projects をオブジェクトで指定してください' });
      }
      const state = {
        sel: typeof body.sel === 'string' ? clip(body.sel, 120) : '',
        tab: body.tab === 'emp' ? 'emp' : 'cust',
        projects: readProjects(body.projects as Record<string, unknown>),
      };
      await app.store.transact(ws, (tx) => tx.put(ONBOARDING, PROJECTS_ID, { id: PROJECTS_ID, ...state }));
      return { state };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/onboarding/requests',
    response: onboardingResponses.requests,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ requests: (await app.store.list(ws, DEVICE_REQUESTS)).sort((a, b) => Number(a.ts) - Number(b.ts)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/onboarding/request',
    response: onboardingResponses.request,
    auth: 'ops:edit',
    body: requestBody,
    handler: async ({ app, ws, body }) => {
      if (!body.name.trim()) throw badRequest('name required', { message: '申請者名(name)を入力してください' });
      if (!body.dept.trim()) throw badRequest('dept required', { message: '部署(dept)を入力してください' });
      const request = await app.store.transact(ws, async (tx) => {
        const id = body.id || randomKey('REQ-', 4);
        if (await tx.get(DEVICE_REQUESTS, id)) throw conflict('request exists', { message: `申請 ${id} は登録済みです` });
        const doc = { id, name: body.name.trim(), dept: body.dept.trim(), model: body.model, mdm: body.mdm, use: body.use, ticket: body.ticket, status: 'pending', lead: null, ts: body.ts ?? Date.now() };
        return tx.put(DEVICE_REQUESTS, id, doc);
      });
      return { request };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/onboarding/request/:id',
    response: onboardingResponses.request,
    auth: 'ops:edit',
    params: requestParams,
    body: updateBody,
    handler: async ({ app, ws, params, body }) => {
      const status = STATUSES.find((s) => s === body.status);
      const request = await app.store.transact(ws, async (tx) => {
        if (!(await tx.get(DEVICE_REQUESTS, params.id))) throw notFound('request not found');
        if (!status) throw badRequest('invalid status', { message: '状態(status)は approved / rejected / pending のいずれかです' });
        const fields: Doc = { status, updated: Date.now() };
        if (status === 'approved') {
          const given = typeof body.lead === 'number' ? body.lead : typeof body.lead === 'string' && body.lead.trim() !== '' ? Number(body.lead) : NaN;
          fields.lead = Number.isFinite(given) && given >= 0 ? given : randomLead();
        }
        return tx.patch(DEVICE_REQUESTS, params.id, fields);
      });
      return { request };
    },
  }),
];
