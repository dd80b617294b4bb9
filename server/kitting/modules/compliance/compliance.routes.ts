import { z } from 'zod';
import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../../core/store/series';
import type { Doc } from '../../../core/store/types';
import { AUDIT_LOG, AUDIT_NUMBERS, auditRow, CAPA, COMPLIANCE, CONTROL_KEYS, CONTROLS_ID, CONTROLS_MAX, isStamp, nowStamp, type ControlKey } from './compliance.service';

export const AUDIT_SERIES = AUDIT_NUMBERS.name;

const str = (n: number) =>
  z
    .union([z.string(), z.number()], { error: 'must be a string' })
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : clip(String(v).trim(), n)));

const capaBody = z.object({ state: z.unknown().optional() }, { error: 'body must be a JSON object' });
const controlsBody = z.object({ controls: z.unknown().optional() }, { error: 'body must be a JSON object' });
const auditBody = z.object(
  { action: str(200), ts: str(40), user: str(60), target: str(200), result: str(20), cat: str(20) },
  { error: 'body must be a JSON object' },
);

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
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => ({
      controls: controlsOf(await app.store.get(ws, COMPLIANCE, CONTROLS_ID)),
      capa: await app.store.list(ws, CAPA),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/compliance/capa/:id',
    auth: 'mgmt:edit',
    params: z.object({ id: z.string().min(1).max(60) }),
    body: capaBody,
    handler: async ({ app, ws, params, body }) => {
      const state = typeof body.state === 'string' ? clip(body.state.trim(), 20) : '';
      if (!state) throw badRequest('state required', { message: '状態(state)を入力してください' });
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
    auth: 'mgmt:edit',
    params: z.object({ key: z.string().max(20) }),
    body: controlsBody,
    handler: async ({ app, ws, params, body }) => {
      const key = CONTROL_KEYS.find((k) => k === params.key);
      if (!key) throw badRequest('unknown control set', { message: '管理策の種別は isms / pmark / soc2 / appi のいずれかです' });
      // bool[]: an entry that is not true/false is refused, never read as false
      if (!Array.isArray(body.controls) || !body.controls.every((v) => typeof v === 'boolean')) {
        throw badRequest('controls required', { message: 'controls を真偽値(true/false)の配列で指定してください' });
      }
      const controls = (body.controls as boolean[]).slice(0, CONTROLS_MAX);
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
    auth: 'mgmt:edit',
    body: auditBody,
    handler: async ({ app, ws, body }) => {
      if (!body.action) throw badRequest('action required', { message: '操作内容(action)を入力してください' });
      // an audit row's ts is 'YYYY-MM-DD HH:mm'; a malformed one would block the compliance report for good
      if (body.ts && !isStamp(body.ts)) throw badRequest('invalid ts', { message: '日時(ts)は YYYY-MM-DD HH:mm 形式で指定してください' });
      const doc = await app.store.transact(ws, async (tx) => {
        const { n: seq, value: id } = await issueNumber(tx, AUDIT_NUMBERS);
        return tx.put(AUDIT_LOG, id, {
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
