import { declareSeries, padNumber } from '../../store/series';

/** The dock reservations of a workspace. */
export const DOCK_RESERVATIONS = 'dockReservations';
/** Dock reservations RV-0001, … */
export const DOCK_NUMBERS = declareSeries({
  name: 'dock',
  period: 'none',
  coll: DOCK_RESERVATIONS,
  field: 'id',
  keyed: true,
  format: (n) => `RV-${padNumber(n, 4)}`,
  pattern: /^RV-(?<n>\d{4,})$/,
  reserve: 100,
});
export const DOCK_SERIES = DOCK_NUMBERS.name;

/** What a new reservation holds for the fields its request leaves out (date: today in Japan). */
export const RESERVATION_DEFAULTS = { start: '09:00', dur: 60, size: '2t', dir: '入荷', cust: '', note: '', berth: '1', road: '', roadStatus: '', permit: '' };
