import { defineRoute, Reply } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import type { Doc } from '../../store/types';
import { collectionSchema, derivedList, derivedObject, derivedText, stamp } from '../../http/collection-schema';
import { deviceChip } from '../../../../shared/devices';
import { completeDevice, DEVICES, withHistory } from './devices.service';
import { BULK_MAX, deviceFields, deviceRequests, deviceResponses } from '../../../../shared/api/contracts/devices';

/** A ledger row as routes and sync pushes accept it (keyed by its IMEI); the rest is derived by the server. */
export const deviceSchema = collectionSchema(
  DEVICES,
  deviceFields,
  { chip: derivedText(40), created: stamp(), updated: stamp(), job: derivedText(200), jobStage: derivedText(60), history: derivedList(50), erasure: derivedObject() },
  'imei',
);

const { create: createDevice, patch: patchDevice, bulk: bulkBody, params: imeiParams } = deviceRequests;

/** qty: required, 0 or missing is 400, otherwise clamped 1..1000 (a server-side reader: it answers the contract's 400). */
function bulkQty(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || Math.trunc(n) === 0) throw badRequest('qty required', { message: `台数(qty)を1〜${BULK_MAX}で指定してください` });
  return Math.min(BULK_MAX, Math.max(1, Math.trunc(n)));
}

export const deviceRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/devices',
    response: deviceResponses.list,
    auth: 'ops:view',
    // The ledger can hold 100,000 rows: stream the stored JSON instead of parsing and re-serialising it.
    handler: async ({ app, ws }) => {
      const rows = await app.store.listJson(ws, DEVICES);
      const body = `{"ok":true,"devices":[${rows.join(',')}],"count":${rows.length}}`;
      return new Reply(200, body, { 'Content-Type': 'application/json; charset=utf-8' });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/device',
    response: deviceResponses.create,
    auth: 'ops:edit',
    body: createDevice,
    handler: async ({ app, ws, body }) => {
      const device = await app.store.transact(ws, async (tx) => {
        // Surrounding blanks (a scanner's trailing space) are not part of the key; a blank imei counts as omitted.
        const imei = body.imei?.trim() || undefined;
        if (imei && (await tx.get(DEVICES, imei))) throw conflict('device already exists', { imei });
        const doc = await completeDevice(tx, { ...body, imei });
        return tx.put(DEVICES, String(doc.imei), doc);
      });
      return { device };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/devices/bulk',
    response: deviceResponses.bulk,
    auth: 'ops:edit',
    body: bulkBody,
    handler: async ({ app, ws, body }) => {
      const qty = bulkQty(body.qty);
      const base = createDevice.parse({ model: body.model, cust: body.cust, mdm: body.mdm, status: body.status });
      const created = await app.store.transact(ws, async (tx) => {
        const taken = new Set<string>();
        const out: Doc[] = [];
        for (let i = 0; i < qty; i++) {
          const doc = await completeDevice(tx, base, taken);
          taken.add(String(doc.imei));
          out.push(await tx.put(DEVICES, String(doc.imei), doc));
        }
        return out;
      });
      return { created, count: created.length };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/device/:imei',
    response: deviceResponses.update,
    auth: 'ops:edit',
    params: imeiParams,
    body: patchDevice,
    handler: async ({ app, ws, params, body }) => {
      if (body.imei !== undefined && body.imei !== params.imei) throw badRequest('imei is immutable', { message: 'IMEIは変更できません' });
      const device = await app.store.transact(ws, async (tx) => {
        const current = await tx.get(DEVICES, params.imei);
        if (!current) throw notFound('device not found');
        const { imei: _imei, ...fields } = body;
        const derived: Doc = { updated: Date.now() };
        if (fields.status !== undefined) derived.chip = deviceChip(fields.status);
        // Every status change is in the device's history.
        const before = typeof current.status === 'string' ? current.status : '';
        if (fields.status !== undefined && fields.status !== before) derived.history = withHistory(current, '状態変更', `${before || '—'} → ${fields.status}`);
        return tx.patch(DEVICES, params.imei, { ...fields, ...derived });
      });
      return { device };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/device/:imei/delete',
    response: deviceResponses.remove,
    auth: 'ops:edit',
    params: imeiParams,
    handler: async ({ app, ws, params }) => {
      const removed = await app.store.transact(ws, (tx) => tx.remove(DEVICES, params.imei));
      if (!removed) throw notFound('device not found');
      return { imei: params.imei };
    },
  }),
];
