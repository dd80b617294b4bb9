import { jstDate } from '../../../../shared/dates';
import { defineRoute } from '../../http/define-route';
import { collectionSchema, stamp } from '../../http/collection-schema';
import { badRequest, notFound } from '../../../core/errors';
import { issueNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import { isDate } from '../compliance/compliance.service';
import { DOCK_NUMBERS, DOCK_RESERVATIONS, RESERVATION_DEFAULTS } from './dock.service';
import { dockRequests, dockReservationFields, dockResponses } from '../../../../shared/api/contracts/staffing';

const { save: reservationBody, params: reservationParams } = dockRequests;
/** Pushed reservations pass the reservation route's field rules; created and updated are the server's stamps. */
export const dockReservationSchema = collectionSchema(DOCK_RESERVATIONS, dockReservationFields, { created: stamp(), updated: stamp() });

// Server-side checks: they answer the contract's 400 and message through the server's errors.
function checkDate(v: string | undefined): void {
  if (v === undefined) return;
  if (!isDate(v)) throw badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
}

function checkStart(v: string | undefined): void {
  if (v === undefined) return;
  const m = /^(\d{2}):(\d{2})$/.exec(v);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) throw badRequest('invalid start', { message: '開始時刻(start)は HH:MM 形式で指定してください' });
}

const byDateStart = (a: Doc, b: Doc) => `${String(a.date)} ${String(a.start)}`.localeCompare(`${String(b.date)} ${String(b.start)}`);

export const dockRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/dock/reservations',
    response: dockResponses.list,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ reservations: (await app.store.list(ws, DOCK_RESERVATIONS)).sort(byDateStart) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/dock/reservation',
    response: dockResponses.save,
    auth: 'ops:edit',
    body: reservationBody,
    handler: async ({ app, ws, body }) => {
      checkDate(body.date);
      checkStart(body.start);
      const { id: givenId, ...fields } = body;
      const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const reservation = await app.store.transact(ws, async (tx) => {
        const now = Date.now();
        const existing = givenId ? await tx.get(DOCK_RESERVATIONS, givenId) : null;
        if (existing && givenId) return (await tx.patch(DOCK_RESERVATIONS, givenId, { ...present, updated: now })) ?? existing;
        const id = (await issueNumber(tx, DOCK_NUMBERS)).value;
        return tx.create(DOCK_RESERVATIONS, id, { id, created: now, updated: now, date: jstDate(), ...RESERVATION_DEFAULTS, ...present });
      });
      return { reservation };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/dock/reservation/:id/delete',
    response: dockResponses.remove,
    auth: 'ops:edit',
    params: reservationParams,
    handler: async ({ app, ws, params }) => {
      if (!(await app.store.transact(ws, (tx) => tx.remove(DOCK_RESERVATIONS, params.id)))) throw notFound('reservation not found');
      return {};
    },
  }),
];
