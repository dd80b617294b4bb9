import { declareSeries, padNumber } from '../../store/series';

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
