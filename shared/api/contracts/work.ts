/** Wire contract of job cards, shipments, inquiries and tickets. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

export const JOB_STAGE_COUNT = 8;
export const Job = z.looseObject({
  id: str,
  c: optStr,
  t: optStr,
  // A card without a stage (e.g. pushed by a bench) reads as stage 0, as the contract's default.
  s: num.default(0),
  due: optStr,
  ch: optStr,
  tag: optStr,
  devices: z.array(z.string()).optional(),
});
export type Job = z.infer<typeof Job>;
export interface JobInput {
  c?: string;
  t?: string;
  s?: number;
  due?: string;
  ch?: string;
  tag?: string;
}

export const Shipment = z.looseObject({
  id: str,
  late: z.boolean().optional(),
  created: num.optional(),
  updated: num.optional(),
  date: optStr,
  kind: optStr,
  customer: optStr,
  detail: optStr,
  carrier: optStr,
  status: optStr,
});
export type Shipment = z.infer<typeof Shipment>;

export const Inquiry = z.looseObject({
  id: str,
  inquiryId: optStr,
  status: optStr,
  type: optStr,
  inquirerName: optStr,
  department: optStr,
  summary: optStr,
  faultyDeviceId: optStr,
  sentDeviceId: optStr,
  remarks: optStr,
  inquiryDate: optStr,
  returnDeadline: optStr,
  shipDate: optStr,
  arrivalDate: optStr,
  returnDate: optStr,
  returnReceivedDate: optStr,
});
export type Inquiry = z.infer<typeof Inquiry>;

export const Ticket = z.looseObject({
  id: str,
  cust: optStr,
  kind: optStr,
  subject: optStr,
  owner: optStr,
  sla: optStr,
  status: optStr,
  priority: optStr,
  created: num.optional(),
});
export type Ticket = z.infer<typeof Ticket>;

export const TicketMessage = z.looseObject({ id: str, from: optStr, text: str, ts: num.optional() });
export type TicketMessage = z.infer<typeof TicketMessage>;

/** Success bodies of the job card routes. */
export const jobResponses = { ...crudResponses('jobs', 'job', Job), devices: okItem('job', Job) };
/** Success bodies of the shipment routes (delete answers `{ok}`). */
export const shipmentResponses = { ...crudResponses('shipments', 'shipment', Shipment), remove: ok({}) };
export const inquiryResponses = crudResponses('inquiries', 'inquiry', Inquiry);
/** Success bodies of the ticket routes (delete answers `{ok}`; it also removes the ticket's messages). */
export const ticketResponses = {
  ...crudResponses('tickets', 'ticket', Ticket),
  remove: ok({}),
  messages: okList('messages', TicketMessage),
  message: okItem('message', TicketMessage),
};
