import { accountsSeeds } from './accounts';
import { commercialSeeds } from './commercial';
import { operationsSeeds } from './operations';
import { maxNumber, type SeedSpec } from '../store/seed';
import { ASSET_SERIES, DEVICES } from './devices/devices.service';
import { INQUIRY_SERIES } from './inquiries/inquiries.routes';
import { SHIPMENT_SERIES } from './shipments/shipments.routes';
import { TICKET_MESSAGES, TICKET_SERIES, TICKETS } from './tickets/tickets.routes';

/** The demo workspace: every data file of seeds/ and the number series that follow it. */
export const seedSpecs: SeedSpec[] = [
  {
    file: 'devices.json',
    coll: DEVICES,
    key: 'imei',
    after: (tx, docs) => tx.bumpSeries(ASSET_SERIES, maxNumber(docs, 'asset', /^HK-26-(\d+)$/)),
  },
  { file: 'customers.json', coll: 'customers' },
  {
    file: 'tickets.json',
    coll: TICKETS,
    after: (tx, docs) => tx.bumpSeries(TICKET_SERIES, maxNumber(docs, 'id', /^TK-0(\d+)$/)),
  },
  { file: 'ticket-messages.json', coll: TICKET_MESSAGES },
  { file: 'jobs.json', coll: 'jobs' },
  {
    file: 'shipments.json',
    coll: 'shipments',
    after: (tx, docs) => tx.bumpSeries(SHIPMENT_SERIES, maxNumber(docs, 'id', /^SHP-(\d+)$/)),
  },
  {
    file: 'inquiries.json',
    coll: 'inquiries',
    after: (tx, docs) => tx.bumpSeries(INQUIRY_SERIES, maxNumber(docs, 'id', /^(\d{5})$/)),
  },
  { file: 'alerts.json', coll: 'alerts' },
  { file: 'ops.json', coll: 'ops' },
  { file: 'centers.json', coll: 'centers' },
  { file: 'staff.json', coll: 'staff' },
  ...commercialSeeds,
  ...operationsSeeds,
  ...accountsSeeds,
];
