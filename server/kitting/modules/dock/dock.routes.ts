import { z } from 'zod';
import { jstDate } from '../../../../shared/dates';
import { createShape, intClamp, text } from '../../../../shared/fields';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { declareSeries, issueNumber, padNumber } from '../../../core/store/series';
import type { Doc } from '../../../core/store/types';
import { isDate } from '../compliance/compliance.service';

export const DOCK_RESERVATIONS = 'dockReservations';
/** Dock reservations RV-0001, … */
export const DOCK_NUMBERS = declareSeries({
  name: 'dock',
  period: 'none',
  coll: DOCK_RESERVATIONS,
  field: 'id',
  keyed: true,
  format: (n) => `RV-${padNumber(n, 4)}`,
  pattern: /^RV-(?<n>\d{4,})$/,
  reserve: 100,
});
export const DOCK_SERIES = DOCK_NUMBERS.name;

const reservationBody = createShape({
  id: text(40).optional(),
  date: text(10).optional(),
  start: text(5).optional(),
  dur: intClamp(5, 1440, 60).optional(),
  size: text(20).optional(),
  dir: text(20).optional(),
  cust: text(120).optional(),
  note: text(300).optional(),
  berth: text(20).optional(),
  road: text(60).optional(),
  roadStatus: text(20).optional(),
  permit: text(60).optional(),
});

const DEFAULTS = { start: '09:00', dur: 60, size: '2t', dir: '入荷', cust: '', note: '', berth: '1', road: '', roadStatus: '', permit: '' };

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
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ reservations: (await app.store.list(ws, DOCK_RESERVATIONS)).sort(byDateStart) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/dock/reservation',
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
        return tx.put(DOCK_RESERVATIONS, id, { id, created: now, updated: now, date: jstDate(), ...DEFAULTS, ...present });
      });
      return { reservation };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/dock/reservation/:id/delete',
    auth: 'ops:edit',
    params: z.object({ id: z.string().min(1).max(40) }),
    handler: async ({ app, ws, params }) => {
      if (!(await app.store.transact(ws, (tx) => tx.remove(DOCK_RESERVATIONS, params.id)))) throw notFound('reservation not found');
      return {};
    },
  }),
];
