import { declareSeries, mirrorField, padNumber } from '../../store/series';

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
