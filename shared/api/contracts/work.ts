/** Wire contract of job cards, shipments, inquiries and tickets. */
import { z } from 'zod';
import { bool, createShape, intClamp, oneOf, patchShape, preprocessed, text } from '../../fields';
import { JOB_DEVICES_MAX, JOB_STAGE_COUNT } from '../../jobs';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';
import { idParams } from './common';

export { JOB_STAGE_COUNT };
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
/** A job card as a client writes it; `devices` is kept by the job's device routes. */
export const jobFields = {
  c: text(120),
  t: text(300),
  s: intClamp(0, JOB_STAGE_COUNT - 1, 0),
  due: text(40),
  ch: text(40).default('c-blue'),
  tag: text(40),
};
const imeiList = z
  .array(z.string().trim().min(1).max(40), { error: 'add/remove must be arrays of IMEIs' })
  .max(JOB_DEVICES_MAX, `at most ${JOB_DEVICES_MAX} devices at once`)
  .optional()
  .default([]);
/** Request schemas of the job card routes. */
export const jobRequests = {
  create: createShape(jobFields),
  patch: patchShape(jobFields),
  params: idParams,
  /** POST /api/job/{id}/devices: IMEIs to put on the card and to take off it (at most JOB_DEVICES_MAX each). */
  devices: z.object({ add: imeiList, remove: imeiList }, { error: 'body must be a JSON object' }),
};
export type JobInput = z.input<typeof jobRequests.patch>;
export type JobDevicesChange = z.input<typeof jobRequests.devices>;

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

/** A shipment as a client writes it; the id (SHP-1001 …) and stamps are the server's. */
export const shipmentFields = {
  kind: oneOf(['out', 'in'], 'out'),
  customer: text(120),
  date: text(40),
  detail: text(300),
  carrier: text(60),
  status: text(40).default('予定'),
  late: bool(),
};
/** Request schemas of the shipment routes. */
export const shipmentRequests = { create: createShape(shipmentFields), patch: patchShape(shipmentFields) };
export type ShipmentCreate = z.input<typeof shipmentRequests.create>;
export type ShipmentPatch = z.input<typeof shipmentRequests.patch>;

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

/** An inquiry as a client writes it; id and inquiryId are the server's (5-digit numbers). */
export const inquiryFields = {
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
/** Request schemas of the inquiry routes (POST /api/inquiry, POST /api/inquiry/{id}). */
export const inquiryRequests = { create: createShape(inquiryFields), patch: patchShape(inquiryFields) };
export type InquiryCreate = z.input<typeof inquiryRequests.create>;
export type InquiryPatch = z.input<typeof inquiryRequests.patch>;

/** A ticket as a client writes it; the id (TK-0673 …) and created are the server's. */
export const ticketFields = {
  cust: text(120).default('—'),
  kind: text(60).default('問合せ'),
  subject: text(300),
  owner: text(60).default('—'),
  sla: text(60).default('4h 00m'),
  status: text(40).default('受付'),
  priority: text(40),
};
/** A message of a ticket's thread. */
export const ticketMessageFields = { ticketId: text(200), from: text(60), text: text(2000) };

/** `customer` is accepted as an alias of `cust` on input. */
function aliasCustomer(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if ((b.cust === undefined || b.cust === null) && b.customer !== undefined) return { ...b, cust: b.customer };
  }
  return body;
}

/** Request schemas of the ticket routes. */
export const ticketRequests = {
  create: preprocessed(aliasCustomer, createShape(ticketFields)),
  patch: preprocessed(aliasCustomer, patchShape(ticketFields)),
  params: idParams,
  /** POST /api/ticket/{id}/message: text is required (blank is refused), from defaults to —. */
  message: z.object({ from: ticketMessageFields.from.zod.nullish(), text: z.unknown().optional() }),
};
export type TicketCreate = z.input<typeof ticketRequests.create>;
export type TicketPatch = z.input<typeof ticketRequests.patch>;
export type TicketMessageInput = z.input<typeof ticketRequests.message>;
