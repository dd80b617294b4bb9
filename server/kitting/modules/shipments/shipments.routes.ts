import { crudRoutes } from '../../../core/http/crud';
import { declareSeries, issueNumber, padNumber } from '../../../core/store/series';
import { collectionSchema, stamp } from '../../../core/http/collection-schema';
import { shipmentFields, shipmentRequests, shipmentResponses } from '../../../../shared/api/contracts/work';

export const SHIPMENTS = 'shipments';
/** SHP-1001, SHP-1002, … */
export const SHIPMENT_NUMBERS = declareSeries({
  name: 'shipment',
  period: 'none',
  start: 1001,
  coll: SHIPMENTS,
  field: 'id',
  keyed: true,
  format: (n) => `SHP-${padNumber(n, 4)}`,
  pattern: /^SHP-(?<n>\d{4,})$/,
  reserve: 500,
});
export const SHIPMENT_SERIES = SHIPMENT_NUMBERS.name;

export const shipmentSchema = collectionSchema(SHIPMENTS, shipmentFields, { created: stamp(), updated: stamp() });

export const shipmentRoutes = crudRoutes({
  scope: 'ops',
  coll: SHIPMENTS,
  listPath: '/api/shipments',
  listKey: 'shipments',
  itemPath: '/api/shipment',
  itemKey: 'shipment',
  requests: shipmentRequests,
  responses: shipmentResponses,
  notFoundError: 'shipment not found',
  fields: shipmentFields,
  newId: async (tx) => (await issueNumber(tx, SHIPMENT_NUMBERS)).value,
  onCreate: () => {
    const now = Date.now();
    return { created: now, updated: now };
  },
  onUpdate: () => ({ updated: Date.now() }),
  deleteResponse: () => ({}),
});
