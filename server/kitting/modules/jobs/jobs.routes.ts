import { crudRoutes } from '../../http/crud';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { collectionSchema, derivedList } from '../../http/collection-schema';
import { changeJobDevices, JOB_DEVICES_MAX, JobDeviceError, JOBS, moveJobDevices, releaseJobDevices } from './jobs.service';
import { jobFields, jobRequests, jobResponses } from '../../../../shared/api/contracts/work';


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
    requests: jobRequests,
    responses: jobResponses,
    notFoundError: 'job not found',
    fields: jobFields,
    newId: async () => randomKey('job-', 4),
    // Devices carried by the card follow it from stage to stage.
    afterUpdate: moveJobDevices,
    beforeDelete: releaseJobDevices,
  }),
  defineRoute({
    method: 'post',
    path: '/api/job/:id/devices',
    response: jobResponses.devices,
    auth: 'ops:edit',
    params: jobRequests.params,
    body: jobRequests.devices,
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
