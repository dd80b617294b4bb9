import { defineRoute } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import { AUDIT_LOG, AUDIT_NUMBERS, auditRow, CAPA, COMPLIANCE, CONTROL_KEYS, CONTROLS_ID, CONTROLS_MAX, isStamp, nowStamp, type ControlKey } from './compliance.service';
import { readCapaState, readControls } from './compliance.schema';
import { complianceResponses } from '../../../../shared/api/contracts/backoffice';
import { complianceRequests } from '../../../../shared/api/contracts/backoffice-requests';

const { capa: capaBody, capaParams, controls: controlsBody, controlsParams, audit: auditBody } = complianceRequests;

function controlsOf(doc: Doc | null): Record<ControlKey, boolean[]> {
  const out = {} as Record<ControlKey, boolean[]>;
  for (const k of CONTROL_KEYS) out[k] = Array.isArray(doc?.[k]) ? (doc[k] as boolean[]).slice(0, CONTROLS_MAX) : [];
  return out;
}

const bySeqDesc = (a: Doc, b: Doc) => Number(b.seq ?? 0) - Number(a.seq ?? 0);

export const complianceRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/compliance',
    response: complianceResponses.view,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => ({
      controls: controlsOf(await app.store.get(ws, COMPLIANCE, CONTROLS_ID)),
      capa: await app.store.list(ws, CAPA),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/compliance/capa/:id',
    response: complianceResponses.capa,
    auth: 'mgmt:edit',
    params: capaParams,
    body: capaBody,
    handler: async ({ app, ws, params, body }) => {
      const state = readCapaState(body.state);
      const capa = await app.store.transact(ws, async (tx) => {
        const updated = await tx.patch(CAPA, params.id, { state, updated: Date.now() });
        if (!updated) throw notFound('capa not found');
        return updated;
      });
      return { capa };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/compliance/controls/:key',
    response: complianceResponses.controls,
    auth: 'mgmt:edit',
    params: controlsParams,
    body: controlsBody,
    handler: async ({ app, ws, params, body }) => {
      const key = CONTROL_KEYS.find((k) => k === params.key);
      if (!key) throw badRequest('unknown control set', { message: '管理策の種別は isms / pmark / soc2 / appi のいずれかです' });
      const controls = readControls(body.controls);
      await app.store.transact(ws, async (tx) => {
        if (await tx.get(COMPLIANCE, CONTROLS_ID)) await tx.patch(COMPLIANCE, CONTROLS_ID, { [key]: controls });
        else await tx.put(COMPLIANCE, CONTROLS_ID, { id: CONTROLS_ID, [key]: controls });
      });
      return { key, controls };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/audit-log',
    response: complianceResponses.auditLog,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => {
      const rows = await app.store.list(ws, AUDIT_LOG);
      rows.sort(bySeqDesc);
      return { logs: rows.map(auditRow) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/audit-log',
    response: complianceResponses.audit,
    auth: 'mgmt:edit',
    body: auditBody,
    handler: async ({ app, ws, body }) => {
      if (!body.action) throw badRequest('action required', { message: '操作内容(action)を入力してください' });
      // an audit row's ts is 'YYYY-MM-DD HH:mm'; a malformed one would block the compliance report for good
      if (body.ts && !isStamp(body.ts)) throw badRequest('invalid ts', { message: '日時(ts)は YYYY-MM-DD HH:mm 形式で指定してください' });
      const doc = await app.store.transact(ws, async (tx) => {
        const { n: seq, value: id } = await issueNumber(tx, AUDIT_NUMBERS);
        return tx.create(AUDIT_LOG, id, {
          id,
          seq,
          ts: body.ts || nowStamp(),
          user: body.user || 'システム',
          action: body.action,
          target: body.target || '—',
          result: body.result || '成功',
          cat: body.cat || 'audit',
          created: Date.now(),
        });
      });
      return { entry: auditRow(doc) };
    },
  }),
];
