import { platformSeeds } from './platform';
import { commercialSeeds } from './commercial';
import { operationsSeeds } from './operations';
import type { SeedSpec } from '../store/seed';
import { DEVICES } from './devices/devices.service';
import { INQUIRIES } from './inquiries/inquiries.service';
import { SHIPMENTS } from './shipments/shipments.service';
import { TICKET_MESSAGES, TICKETS } from './tickets/tickets.service';

/**
 * The demo workspace: every data file of seeds/. The number series of the records (their declared
 * series, server/kitting/store/series.ts) continue after the highest seeded number.
 */
const ALL_SEEDS: SeedSpec[] = [
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

/** The day the demo files were written for: their dates move with the calendar so the demo center lives. */
export const SEEDS_AS_OF = '2026-11-26';
/** Files whose record ids carry their month (INV-2607-…, Q-2610-…): their dates stay as written. */
const DATED_IDS = new Set(['invoices.json', 'quotes.json']);

export const seedSpecs: SeedSpec[] = ALL_SEEDS.map((s) => (DATED_IDS.has(s.file) ? s : { asOf: SEEDS_AS_OF, ...s }));
