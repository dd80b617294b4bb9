import { crudRoutes } from '../../http/crud';
import { issueNumber } from '../../store/series';
import { collectionSchema, derivedText, stamp } from '../../http/collection-schema';
import { inquiryFields, inquiryRequests, inquiryResponses } from '../../../../shared/api/contracts/work';
import { INQUIRIES, INQUIRY_NUMBERS } from './inquiries.service';

export const inquirySchema = collectionSchema(INQUIRIES, inquiryFields, { inquiryId: derivedText(40), created: stamp() });

export const inquiryRoutes = crudRoutes({
  scope: 'support',
  coll: INQUIRIES,
  listPath: '/api/inquiries',
  listKey: 'inquiries',
  itemPath: '/api/inquiry',
  itemKey: 'inquiry',
  requests: inquiryRequests,
  responses: inquiryResponses,
  notFoundError: 'inquiry not found',
  fields: inquiryFields,
  newId: async (tx) => (await issueNumber(tx, INQUIRY_NUMBERS)).value,
  onCreate: (doc) => ({ inquiryId: doc.id, created: Date.now() }),
  // Oldest id first: ids are zero-padded, so string order is number order.
  sort: (a, b) => String(a.id).localeCompare(String(b.id)),
});
