import { crudRoutes } from '../../http/crud';
import { issueNumber } from '../../store/series';
import { SHIPMENT_NUMBERS, SHIPMENT_SERIES, SHIPMENTS } from './shipments.service';
import { collectionSchema, stamp } from '../../http/collection-schema';
import { shipmentFields, shipmentRequests, shipmentResponses } from '../../../../shared/api/contracts/work';


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
