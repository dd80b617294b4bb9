/**
 * Wire contract of inbound lists (入荷予定): the expected IMEIs of a shipping notice imported from CSV or
 * XLSX, scanned against, closed with a discrepancy report. Pure TypeScript: no node:, electron or DOM imports.
 */
import { z } from 'zod';
import { num, ok, optStr, str } from '../primitives';
import { idParams, objectBody } from './common';

export const INBOUND_STATUSES = ['open', 'closed'] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];
export const INBOUND_LINE_STATES = ['expected', 'received', 'unexpected'] as const;
export type InboundLineState = (typeof INBOUND_LINE_STATES)[number];
export const SCAN_RESULTS = ['received', 'duplicate', 'unexpected'] as const;
export type InboundScanResult = (typeof SCAN_RESULTS)[number];
/** Why a row of the file was not taken. */
export const ROW_REASONS = ['missing', 'not_15_digits', 'check_digit', 'duplicate'] as const;
export type InboundRowReason = (typeof ROW_REASONS)[number];

/** Largest file accepted (bytes, before base64) and most data rows. */
export const INBOUND_MAX_BYTES = 20 * 1024 * 1024;
export const INBOUND_MAX_ROWS = 50_000;
/** Row errors listed in an answer (errorCount counts them all). */
export const INBOUND_MAX_ERRORS = 1000;

export const InboundCounts = z.looseObject({ expected: num, received: num, unexpected: num, missing: num });
export type InboundCounts = z.infer<typeof InboundCounts>;

export const Inbound = z.looseObject({
  id: str,
  no: str,
  name: str,
  cust: str,
  createdAt: num,
  status: z.enum(INBOUND_STATUSES),
  counts: InboundCounts,
  filename: optStr,
  closedAt: num.nullish(),
  closedBy: optStr,
});
export type Inbound = z.infer<typeof Inbound>;

export const InboundLine = z.looseObject({
  imei: str,
  serial: z.string(),
  model: z.string(),
  note: z.string(),
  state: z.enum(INBOUND_LINE_STATES),
  scannedAt: num.nullable(),
  device: z.string().nullable(),
  row: num.nullish(),
});
export type InboundLine = z.infer<typeof InboundLine>;

export const InboundRowError = z.looseObject({ row: num, value: z.string(), reason: z.enum(ROW_REASONS) });
export type InboundRowError = z.infer<typeof InboundRowError>;

/** Where the columns were found: letters (A, B, …) or null, and the header row (0 = none). */
export const InboundColumns = z.looseObject({
  imei: z.string(),
  serial: z.string().nullable(),
  model: z.string().nullable(),
  note: z.string().nullable(),
  headerRow: num,
});
export type InboundColumns = z.infer<typeof InboundColumns>;

const FileFacts = {
  kind: z.enum(['csv', 'xlsx']),
  encoding: z.string().nullable(),
  delimiter: z.string().nullable(),
  sheet: z.string().nullable(),
  columns: InboundColumns,
  errors: z.array(InboundRowError),
  errorCount: num,
};

export const InboundReport = z.looseObject({ received: num, missing: z.array(InboundLine), unexpected: z.array(InboundLine) });

/** Success bodies of the inbound routes. */
export const inboundResponses = {
  list: ok({ inbounds: z.array(Inbound) }),
  detail: ok({ inbound: Inbound, lines: z.array(InboundLine) }),
  create: ok({ inbound: Inbound, errors: z.array(InboundRowError), errorCount: num, columns: InboundColumns }),
  preview: ok({ ...FileFacts, headers: z.array(z.string()), rows: z.array(z.looseObject({ row: num, cells: z.array(z.string()) })), total: num, valid: num }),
  scan: ok({ result: z.enum(SCAN_RESULTS), line: InboundLine, device: z.looseObject({ imei: str }).nullable() }),
  close: ok({ inbound: Inbound, report: InboundReport }),
  remove: ok({ id: str }),
};

/** mapping: column letters of the fields, the header row (1-based; 0 = the file has none) and the sheet of an XLSX. */
export interface InboundMapping {
  imei?: string;
  serial?: string;
  model?: string;
  note?: string;
  headerRow?: number;
  sheet?: string;
}

/** Request schemas of the inbound routes (the fields are read by the server's own rules, with the contract's error strings). */
export const inboundRequests = {
  params: idParams,
  create: objectBody<{ name: string; cust: string; file: string; filename?: string; mapping?: InboundMapping }>(),
  preview: objectBody<{ file: string; filename?: string; mapping?: InboundMapping }>(),
  scan: objectBody<{ imei: string; confirm?: boolean }>(),
  close: objectBody<{ by?: string }>(),
};
export type InboundCreateInput = z.input<typeof inboundRequests.create>;
