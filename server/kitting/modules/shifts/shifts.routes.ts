import { defineRoute } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import {
  DRAFT_ID,
  gridDiff,
  listHistory,
  liveDraft,
  pushHistory,
  readClock,
  readGrid,
  readRoster,
  REASON_APPLY,
  REASON_RESTORE,
  SHIFT_HISTORY,
  SHIFTS,
  staffIds,
  writeRoster,
  type Draft,
  type Grid,
  type Snapshot,
} from './shifts.service';
import { shiftRequests, shiftResponses } from '../../../../shared/api/contracts/staffing';

const { grid: gridBody, hidParams } = shiftRequests;

const gridRequired = () => badRequest('grid required', { message: 'シフト表(grid)をスタッフごとに7日分で指定してください' });

export const shiftRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/shifts',
    response: shiftResponses.roster,
    auth: 'ops:view',
    handler: async ({ app, ws }) =>
      app.store.transact(ws, async (tx) => {
        const roster = await readRoster(tx);
        const draft = liveDraft(await tx.get(SHIFTS, DRAFT_ID));
        return { grid: roster.grid, clock: roster.clock, ...(draft ? { draft } : {}) };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/shifts',
    response: shiftResponses.save,
    auth: 'ops:edit',
    body: gridBody,
    handler: async ({ app, ws, body }) =>
      app.store.transact(ws, async (tx) => {
        const ids = await staffIds(tx, body.grid, body.clock);
        const grid = readGrid(body.grid, ids);
        if (Object.keys(grid).length === 0) throw gridRequired();
        const current = await readRoster(tx);
        const clock = body.clock === undefined || body.clock === null ? current.clock : readClock(body.clock, ids);
        await writeRoster(tx, { grid, clock });
        return { grid, clock };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/shifts/draft',
    response: shiftResponses.draft,
    auth: 'ops:edit',
    body: gridBody,
    handler: async ({ app, ws, body }) =>
      app.store.transact(ws, async (tx) => {
        const rows = readGrid(body.grid, await staffIds(tx, body.grid));
        if (Object.keys(rows).length === 0) throw gridRequired();
        const { grid: current } = await readRoster(tx);
        // rows not sent keep their current value, so a partial draft never blanks anyone
        const grid: Grid = { ...current, ...rows };
        const draft: Draft = { grid, diff: gridDiff(current, rows), ts: Date.now(), status: 'unconfirmed' };
        await tx.put(SHIFTS, DRAFT_ID, { id: DRAFT_ID, ...draft });
        return { draft };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/shifts/draft/apply',
    response: shiftResponses.apply,
    auth: 'ops:edit',
    handler: async ({ app, ws }) =>
      app.store.transact(ws, async (tx) => {
        const draft = liveDraft(await tx.get(SHIFTS, DRAFT_ID));
        if (!draft) throw notFound('no draft', { message: '適用できる下書きがありません(期限切れを含む)' });
        const roster = await readRoster(tx);
        const ids = await staffIds(tx, draft.grid);
        const snap = await pushHistory(tx, roster.grid, REASON_APPLY);
        const grid = Object.fromEntries(Object.entries(draft.grid).filter(([id]) => ids.has(id)));
        await writeRoster(tx, { grid, clock: roster.clock });
        await tx.remove(SHIFTS, DRAFT_ID);
        const ts = Date.now();
        return { grid, applied: { ts, diff: gridDiff(roster.grid, grid), restoreId: snap.id }, history: await listHistory(tx) };
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/shifts/draft/discard',
    response: shiftResponses.discard,
    auth: 'ops:edit',
    handler: async ({ app, ws }) =>
      app.store.transact(ws, async (tx) => {
        const doc = await tx.get(SHIFTS, DRAFT_ID);
        const discarded = liveDraft(doc) !== null;
        if (doc) await tx.remove(SHIFTS, DRAFT_ID);
        return { discarded, grid: (await readRoster(tx)).grid };
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/shifts/history',
    response: shiftResponses.history,
    auth: 'ops:view',
    handler: async ({ app, ws }) => app.store.transact(ws, async (tx) => ({ history: await listHistory(tx) })),
  }),
  defineRoute({
    method: 'post',
    path: '/api/shifts/restore/:hid',
    response: shiftResponses.restore,
    auth: 'ops:edit',
    params: hidParams,
    handler: async ({ app, ws, params }) =>
      app.store.transact(ws, async (tx) => {
        const snap = await tx.get<Snapshot>(SHIFT_HISTORY, params.hid);
        if (!snap) throw notFound('unknown snapshot');
        const roster = await readRoster(tx);
        const ids = await staffIds(tx, snap.grid);
        await pushHistory(tx, roster.grid, REASON_RESTORE);
        // staff removed since the snapshot are not brought back
        const grid = Object.fromEntries(Object.entries(snap.grid).filter(([id]) => ids.has(id)));
        await writeRoster(tx, { grid, clock: roster.clock });
        if (await tx.get(SHIFTS, DRAFT_ID)) await tx.remove(SHIFTS, DRAFT_ID);
        return { grid, restored: { id: snap.id, ts: snap.ts, reason: snap.reason }, history: await listHistory(tx) };
      }),
  }),
];
