import { z } from 'zod';
import { intClamp, text } from '../../../../shared/fields';
import { crudRoutes, randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { collectionSchema, derivedList } from '../../../core/http/collection-schema';
import { changeJobDevices, JOB_DEVICES_MAX, JOB_STAGES, JobDeviceError, JOBS, moveJobDevices, releaseJobDevices } from './jobs.service';

export { JOB_STAGES };

const imeiList = z
  .array(z.string().trim().min(1).max(40), { error: 'add/remove must be arrays of IMEIs' })
  .max(JOB_DEVICES_MAX, `at most ${JOB_DEVICES_MAX} devices at once`)
  .optional()
  .default([]);
const devicesBody = z.object({ add: imeiList, remove: imeiList }, { error: 'body must be a JSON object' });

const jobFields = {
  c: text(120),
  t: text(300),
  s: intClamp(0, JOB_STAGES - 1, 0),
  due: text(40),
  ch: text(40).default('c-blue'),
  tag: text(40),
};
/** A job card as routes and sync pushes accept it; `devices` is kept by the job's device routes. */
export const jobSchema = collectionSchema(JOBS, jobFields, { devices: derivedList(JOB_DEVICES_MAX) });

export const jobRoutes = [
  ...crudRoutes({
    scope: 'ops',
    coll: JOBS,
    listPath: '/api/jobs',
    listKey: 'jobs',
    itemPath: '/api/job',
    itemKey: 'job',
    notFoundError: 'job not found',
    fields: jobFields,
    newId: async () => randomId('job-'),
    // Devices carried by the card follow it from stage to stage.
    afterUpdate: moveJobDevices,
    beforeDelete: releaseJobDevices,
  }),
  defineRoute({
    method: 'post',
    path: '/api/job/:id/devices',
    auth: 'ops:edit',
    params: z.object({ id: z.string().min(1).max(200) }),
    body: devicesBody,
    handler: async ({ app, ws, params, body }) => {
      if (body.add.length === 0 && body.remove.length === 0) throw badRequest('nothing to change', { message: '追加または外す端末(add / remove)を指定してください' });
      try {
        const job = await app.store.transact(ws, (tx) => changeJobDevices(tx, params.id, body.add, body.remove));
        if (!job) throw notFound('job not found');
        return { job };
      } catch (e) {
        if (e instanceof JobDeviceError) throw notFound('device not found', { imeis: e.imeis, message: `台帳に未登録の端末です: ${e.imeis.slice(0, 5).join(', ')}` });
        throw e;
      }
    },
  }),
];
