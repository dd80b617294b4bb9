import { text } from '../../../shared/fields';
import { crudRoutes } from '../../http/crud';

export const INQUIRY_SERIES = 'inquiry';

export const inquiryRoutes = crudRoutes({
  scope: 'support',
  coll: 'inquiries',
  listPath: '/api/inquiries',
  listKey: 'inquiries',
  itemPath: '/api/inquiry',
  itemKey: 'inquiry',
  notFoundError: 'inquiry not found',
  fields: {
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
  },
  newId: async (tx) => String(await tx.next(INQUIRY_SERIES)).padStart(5, '0'),
  onCreate: (doc) => ({ inquiryId: doc.id, created: Date.now() }),
  // Oldest id first: ids are zero-padded, so string order is number order.
  sort: (a, b) => String(a.id).localeCompare(String(b.id)),
});
