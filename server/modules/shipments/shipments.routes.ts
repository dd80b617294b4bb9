import { bool, oneOf, text } from '../../../shared/fields';
import { crudRoutes } from '../../http/crud';

export const SHIPMENT_SERIES = 'shipment';

export const shipmentRoutes = crudRoutes({
  scope: 'ops',
  coll: 'shipments',
  listPath: '/api/shipments',
  listKey: 'shipments',
  itemPath: '/api/shipment',
  itemKey: 'shipment',
  notFoundError: 'shipment not found',
  fields: {
    kind: oneOf(['out', 'in'], 'out'),
    customer: text(120),
    date: text(40),
    detail: text(300),
    carrier: text(60),
    status: text(40).default('予定'),
    late: bool(),
  },
  newId: async (tx) => `SHP-${String(await tx.next(SHIPMENT_SERIES, { start: 1001 })).padStart(4, '0')}`,
  onCreate: () => {
    const now = Date.now();
    return { created: now, updated: now };
  },
  onUpdate: () => ({ updated: Date.now() }),
  deleteResponse: () => ({}),
});
