import { intClamp, text } from '../../../shared/fields';
import { crudRoutes, randomId } from '../../http/crud';

/** The board's 8 stages are 0..7. */
export const JOB_STAGES = 8;

export const jobRoutes = crudRoutes({
  scope: 'ops',
  coll: 'jobs',
  listPath: '/api/jobs',
  listKey: 'jobs',
  itemPath: '/api/job',
  itemKey: 'job',
  notFoundError: 'job not found',
  fields: {
    c: text(120),
    t: text(300),
    s: intClamp(0, JOB_STAGES - 1, 0),
    due: text(40),
    ch: text(40).default('c-blue'),
    tag: text(40),
  },
  newId: async () => randomId('job-'),
});
