/** Wire contract of erasure certificates and labels. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

export const CertDevice = z.looseObject({ model: optStr, id: str, storage: optStr });
export const ErasureCert = z.looseObject({
  no: str,
  date: optStr,
  cust: optStr,
  count: num.optional(),
  methodKey: optStr,
  method: optStr,
  nist: optStr,
  devices: z.array(CertDevice).optional(),
  issuedAt: num.optional(),
});
export type ErasureCert = z.infer<typeof ErasureCert>;
export type ErasureMethod = 'purge' | 'clear' | 'destroy';
export interface CertInput {
  cust: string;
  methodKey: ErasureMethod;
  date: string;
  count: number;
  devices: { model: string; id: string; storage: string }[];
}

export const LABEL_FIELDS = ['mgmt', 'imei', 'cust', 'model', 'qr', 'barcode'] as const;
export type LabelField = (typeof LABEL_FIELDS)[number];
export type LabelSize = 's' | 'm' | 'l';
export const LabelTemplate = z.looseObject({
  id: str,
  name: optStr,
  size: optStr,
  fields: z.record(z.string(), z.boolean()).optional(),
  ts: num.optional(),
});
export type LabelTemplate = z.infer<typeof LabelTemplate>;
export const LabelLogEntry = z.looseObject({ id: str, ts: num.optional(), date: optStr, count: num.optional(), size: optStr, result: optStr, reason: optStr });
export type LabelLogEntry = z.infer<typeof LabelLogEntry>;

/** Success bodies of the erasure certificate routes (issue also names the ledger devices it marked). */
export const certResponses = {
  list: okList('certs', ErasureCert),
  one: ok({ cert: ErasureCert, renumbered: z.array(z.looseObject({ no: str, formerNo: optStr })).optional() }),
  issue: ok({ cert: ErasureCert, erased: z.array(str) }),
};
/** Success bodies of the label template and print log routes. */
export const labelResponses = {
  templates: okList('templates', LabelTemplate),
  save: okItem('template', LabelTemplate),
  remove: ok({ id: str }),
  log: okList('log', LabelLogEntry),
  addLog: okItem('entry', LabelLogEntry),
};
