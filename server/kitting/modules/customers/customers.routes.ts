import { crudRoutes } from '../../http/crud';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest } from '../../../core/errors';
import { collectionSchema, stamp } from '../../http/collection-schema';
import { customerFields, customerRequests, customerResponses } from '../../../../shared/api/contracts/customers';
import { CUSTOMERS, renewalsOf } from './customers.service';

/** Name is required and can't be blanked (a server-side rule: it answers the contract's 400 and message). */
function requireName(body: unknown): unknown {
  const b = (body ?? {}) as Record<string, unknown>;
  if (b && typeof b === 'object' && (typeof b.name !== 'string' && typeof b.name !== 'number' || String(b.name).trim() === '')) {
    throw badRequest('name required', { message: '顧客名(name)は必須です' });
  }
  return body;
}

export const customerSchema = collectionSchema(CUSTOMERS, customerFields, { created: stamp(), updated: stamp() });

const customerCrud = crudRoutes({
  scope: 'sales',
  coll: CUSTOMERS,
  listPath: '/api/customers',
  listKey: 'customers',
  itemPath: '/api/customer',
  itemKey: 'customer',
  requests: customerRequests,
  responses: customerResponses,
  notFoundError: 'customer not found',
  fields: customerFields,
  newId: async () => randomKey('cust-', 4),
  onCreate: (doc) => {
    requireName(doc);
    return { created: Date.now() };
  },
  onUpdate: (merged) => {
    requireName(merged);
    return { updated: Date.now() };
  },
  createResponse: (doc) => ({ id: doc.id, customer: doc }),
});

export const customerRoutes = [
  ...customerCrud,
  defineRoute({
    method: 'get',
    path: '/api/renewals',
    response: customerResponses.renewals,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ renewals: renewalsOf(await app.store.list(ws, CUSTOMERS)) }),
  }),
];
