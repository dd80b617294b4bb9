import { jstTime } from '../../../../shared/dates';
import { clip } from '../../../../shared/fields';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import type { Tx } from '../../store/types';
import { collectionSchema } from '../../http/collection-schema';
import { DRAFT_ID, readRoster, SHIFTS, STAFF, writeRoster, type ClockRow, type Grid } from './shifts.service';
import { staffFields, staffRequests, staffResponses } from '../../../../shared/api/contracts/staffing';

export const staffSchema = collectionSchema(STAFF, staffFields);
const { create: createStaff, patch: patchStaff, params: idParams, punchParams, punch: punchBody } = staffRequests;

const nameRequired = () => badRequest('name required', { message: '氏名(name)を入力してください' });
const staffList = (tx: Tx) => tx.list(STAFF);

export const staffRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/staff',
    response: staffResponses.list,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ staff: await app.store.list(ws, STAFF) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/staff',
    response: staffResponses.create,
    auth: 'ops:edit',
    body: createStaff,
    handler: async ({ app, ws, body }) => {
      const name = body.name.trim();
      if (!name) throw nameRequired();
      return app.store.transact(ws, async (tx) => {
        const staff = { id: randomKey('st-', 4), name, type: body.type };
        await tx.put(STAFF, staff.id, staff);
        // a new person starts with a week off, so the roster always has a row per staff member
        const roster = await readRoster(tx);
        await writeRoster(tx, { grid: { ...roster.grid, [staff.id]: Array(7).fill('off') }, clock: roster.clock });
        return { staff, staffList: await staffList(tx) };
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/staff/:id',
    response: staffResponses.update,
    auth: 'ops:edit',
    params: idParams,
    body: patchStaff,
    handler: async ({ app, ws, params, body }) => {
      if (body.name !== undefined && !body.name.trim()) throw nameRequired();
      const fields = { ...body, ...(body.name !== undefined ? { name: body.name.trim() } : {}) };
      const staff = await app.store.transact(ws, async (tx) => {
        const updated = await tx.patch(STAFF, params.id, fields);
        if (!updated) throw notFound('staff not found');
        return updated;
      });
      return { staff };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/staff/:id/delete',
    response: staffResponses.remove,
    auth: 'ops:edit',
    params: idParams,
    handler: async ({ app, ws, params }) =>
      app.store.transact(ws, async (tx) => {
        if (!(await tx.remove(STAFF, params.id))) throw notFound('staff not found');
        const roster = await readRoster(tx);
        const { [params.id]: _row, ...grid } = roster.grid;
        const { [params.id]: _clock, ...clock } = roster.clock;
        await writeRoster(tx, { grid, clock });
        const draft = await tx.get(SHIFTS, DRAFT_ID);
        if (draft && draft.grid && typeof draft.grid === 'object') {
          const { [params.id]: _d, ...draftGrid } = draft.grid as Grid;
          await tx.patch(SHIFTS, DRAFT_ID, { grid: draftGrid, diff: (draft.diff as { staffId: string }[]).filter((d) => d.staffId !== params.id) });
        }
        return { id: params.id, staffList: await staffList(tx) };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/timeclock/:staffId/punch',
    response: staffResponses.punch,
    auth: 'ops:edit',
    params: punchParams,
    body: punchBody,
    handler: async ({ app, ws, params, body }) =>
      app.store.transact(ws, async (tx) => {
        if (!(await tx.get(STAFF, params.staffId))) throw notFound('staff not found');
        const roster = await readRoster(tx);
        const prev = roster.clock[params.staffId];
        const asked = typeof body.dir === 'string' ? clip(body.dir, 8) : '';
        const dir = asked === 'in' || asked === 'out' ? asked : prev?.status === 'in' ? 'out' : 'in';
        // The clock follows the person: no second 出勤 while clocked in, no 退勤 without 出勤.
        if (dir === 'in' && prev?.status === 'in') throw conflict('already clocked in', { message: `すでに出勤中です（${prev.in ?? ''} 出勤）。退勤を打刻してください` });
        if (dir === 'out' && prev?.status !== 'in') throw conflict('not clocked in', { message: '出勤の打刻がないため退勤できません。先に出勤を打刻してください' });
        const now = jstTime();
        const units = prev?.units ?? 0;
        const row: ClockRow = dir === 'in' ? { in: now, out: null, status: 'in', units } : { in: prev?.in ?? null, out: now, status: 'out', units };
        await writeRoster(tx, { grid: roster.grid, clock: { ...roster.clock, [params.staffId]: row } });
        return { staffId: params.staffId, row };
      }),
  }),
];
