import { platformSeeds } from './platform';
import { commercialSeeds } from './commercial';
import { operationsSeeds } from './operations';
import type { SeedSpec } from '../../core/store/seed';
import { DEVICES } from './devices/devices.service';
import { INQUIRIES } from './inquiries/inquiries.service';
import { SHIPMENTS } from './shipments/shipments.service';
import { TICKET_MESSAGES, TICKETS } from './tickets/tickets.service';

/**
 * The demo workspace: every data file of seeds/. The number series of the records (their declared
 * series, server/core/store/series.ts) continue after the highest seeded number.
 */
export const seedSpecs: SeedSpec[] = [
  { file: 'devices.json', coll: DEVICES, key: 'imei' },
  { file: 'customers.json', coll: 'customers' },
  { file: 'tickets.json', coll: TICKETS },
  { file: 'ticket-messages.json', coll: TICKET_MESSAGES },
  { file: 'jobs.json', coll: 'jobs' },
  { file: 'shipments.json', coll: SHIPMENTS },
  { file: 'inquiries.json', coll: INQUIRIES },
  { file: 'alerts.json', coll: 'alerts' },
  { file: 'ops.json', coll: 'ops' },
  { file: 'centers.json', coll: 'centers' },
  { file: 'staff.json', coll: 'staff' },
  ...commercialSeeds,
  ...operationsSeeds,
  ...platformSeeds,
];
