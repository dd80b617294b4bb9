import { text } from '../../../../shared/fields';
import { crudRoutes } from '../../../core/http/crud';
import { declareSeries, issueNumber, mirrorField, padNumber } from '../../../core/store/series';
import { collectionSchema, derivedText, stamp } from '../../../core/http/collection-schema';
import { inquiryResponses } from '../../../../shared/api/contracts/work';

export const INQUIRIES = 'inquiries';
/** 5-digit inquiry ids (00012); inquiryId repeats the id. */
export const INQUIRY_NUMBERS = declareSeries({
  name: 'inquiry',
  period: 'none',
  coll: INQUIRIES,
  field: 'id',
  keyed: true,
  format: (n) => padNumber(n, 5),
  pattern: /^(?<n>\d{5,})$/,
  reserve: 200,
  follow: mirrorField('inquiryId'),
});
export const INQUIRY_SERIES = INQUIRY_NUMBERS.name;

const inquiryFields = {
  status: text(40).default('オープン'),
  type: text(40).default('故障'),
  customer: text(120),
  title: text(300),
  inquirerName: text(120),
  department: text(120),
  summary: text(2000),
  faultyDeviceId: text(40),
  sentDeviceId: text(40),
  remarks: text(2000),
  inquiryDate: text(20),
  returnDeadline: text(20),
  shipDate: text(20),
  arrivalDate: text(20),
  returnDate: text(20),
  returnReceivedDate: text(20),
};
export const inquirySchema = collectionSchema(INQUIRIES, inquiryFields, { inquiryId: derivedText(40), created: stamp() });

export const inquiryRoutes = crudRoutes({
  scope: 'support',
  coll: INQUIRIES,
  listPath: '/api/inquiries',
  listKey: 'inquiries',
  itemPath: '/api/inquiry',
  itemKey: 'inquiry',
  responses: inquiryResponses,
  notFoundError: 'inquiry not found',
  fields: inquiryFields,
  newId: async (tx) => (await issueNumber(tx, INQUIRY_NUMBERS)).value,
  onCreate: (doc) => ({ inquiryId: doc.id, created: Date.now() }),
  // Oldest id first: ids are zero-padded, so string order is number order.
  sort: (a, b) => String(a.id).localeCompare(String(b.id)),
});
