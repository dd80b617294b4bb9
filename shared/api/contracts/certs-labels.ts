/** Wire contract of erasure certificates and labels. */
import { z } from 'zod';
import { bool, clip, createShape, intClamp, json, oneOf, text } from '../../fields';
import { num, ok, okItem, okList, optStr, str } from '../primitives';

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
  /** The signature of the canonical record (certificates issued before signing existed have none). */
  signature: z.looseObject({ alg: str, kid: str, jws: str }).optional(),
  /** base64url SHA-256 of the canonical record (the `d` of the verification URL). */
  recordDigest: optStr,
  revoked: z.looseObject({ reason: str, at: num, by: optStr }).optional(),
  /** In lists: the public verification page (null while central's public address is unknown). */
  verifyUrl: str.nullable().optional(),
});
export type ErasureCert = z.infer<typeof ErasureCert>;
export type ErasureMethod = 'purge' | 'clear' | 'destroy';

/** Most devices one certificate lists. */
export const CERT_MAX_DEVICES = 5000;

/** A string (or number) read as text: trimmed, clipped to n; missing or null reads as ''. */
const certText = (n: number) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : clip(String(v).trim(), n)));

/** One device a certificate lists, as the issue route reads it (each text trimmed and clipped). */
export const certDevice = z.object(
  { model: certText(60), id: certText(40), storage: certText(40), serial: certText(40).optional() },
  { error: 'devices must be objects {model, id, storage}' },
);

/** Request schemas of the erasure certificate routes (methodKey, date and count are read by the server, which answers their 400s). */
export const certRequests = {
  issue: z.object(
    {
      cust: certText(120),
      methodKey: z.unknown().optional(),
      date: z.unknown().optional(),
      count: z.unknown().optional(),
      devices: z.array(certDevice, { error: 'devices must be an array' }).max(CERT_MAX_DEVICES, `devices: at most ${CERT_MAX_DEVICES}`).nullish(),
      operator: certText(60),
      /** Optional details the signed record carries when given (erasure tool, its verification, validator, site). */
      tool: certText(80),
      toolVersion: certText(40),
      verifyMethod: certText(120),
      verifyResult: certText(120),
      validator: certText(60),
      site: certText(120),
    },
    { error: 'body must be a JSON object' },
  ),
  params: z.object({ no: z.string().min(1).max(60) }),
};
/** POST /api/cert as a client writes it (methodKey: purge / clear / destroy; date YYYY-MM-DD). */
export type CertInput = Omit<z.input<typeof certRequests.issue>, 'methodKey'> & { methodKey?: ErasureMethod | null };

export const LABEL_FIELDS = ['mgmt', 'imei', 'cust', 'model', 'qr', 'barcode'] as const;
export type LabelField = (typeof LABEL_FIELDS)[number];
export const LABEL_SIZES = ['s', 'm', 'l'] as const;
export type LabelSize = (typeof LABEL_SIZES)[number];
export type LabelFlags = Record<LabelField, boolean>;
export const LabelTemplate = z.looseObject({
  id: str,
  name: optStr,
  size: optStr,
  fields: z.record(z.string(), z.boolean()).optional(),
  ts: num.optional(),
});
export type LabelTemplate = z.infer<typeof LabelTemplate>;
export const LabelLogEntry = z.looseObject({ id: str, ts: num.optional(), date: optStr, count: num.optional(), size: optStr, result: optStr, reason: optStr, imei: optStr, asset: optStr });
export type LabelLogEntry = z.infer<typeof LabelLogEntry>;

/** Template fields: every flag a bool, a missing flag reads as shown (true). */
export const labelFlags = z
  .record(z.string(), z.unknown(), { error: 'fields must be an object' })
  .transform((raw, ctx) => {
    const out = {} as LabelFlags;
    for (const k of LABEL_FIELDS) {
      if (raw[k] === undefined || raw[k] === null) {
        out[k] = true;
        continue;
      }
      const r = bool().zod.safeParse(raw[k]);
      if (!r.success) {
        ctx.addIssue({ code: 'custom', message: 'must be true or false', path: [k] });
        continue;
      }
      out[k] = r.data;
    }
    return out;
  });
/** A template that shows every field. */
export const allLabelFlags = (): LabelFlags => ({ mgmt: true, imei: true, cust: true, model: true, qr: true, barcode: true });
/** Latest stamp a template or log entry may carry (the largest valid Date). */
const MAX_TS = 8_640_000_000_000_000;

/** A label template as a client writes it (the id is the server's when omitted). */
export const labelTemplateFields = {
  id: text(40).optional(),
  name: text(60).default('ラベル'),
  size: oneOf(LABEL_SIZES, 'm'),
  fields: json(labelFlags).default(allLabelFlags),
  ts: intClamp(0, MAX_TS, 0).optional(),
};
/** A print log entry as a client writes it. */
export const labelLogFields = {
  size: oneOf(LABEL_SIZES, 'm'),
  count: intClamp(1, 100_000, 1),
  date: text(10).optional(),
  ts: intClamp(0, MAX_TS, 0).optional(),
  /**
   * Outcome of the print job: ok (the printer took it), sent (handed to the browser's print dialog, whose
   * outcome the app cannot see), failed (the desktop app logs failures too, with the printer's reason).
   */
  result: oneOf(['ok', 'sent', 'failed'], 'ok'),
  /** The device the label was printed for (IMEI and 管理番号). */
  imei: text(40).optional(),
  asset: text(40).optional(),
  reason: text(200).optional(),
  printer: text(120).optional(),
};
/** Request schemas of the label routes. */
export const labelRequests = {
  template: createShape(labelTemplateFields),
  log: createShape(labelLogFields),
  params: z.object({ id: z.string().min(1).max(60) }),
  /** GET /api/labels/render: the device, template or size, and output format. */
  render: z.object({
    imei: z.string({ error: 'imei required' }).trim().min(1, 'imei required').max(40),
    tpl: z.string().max(60).optional(),
    size: z.enum(LABEL_SIZES, { error: 'size must be s, m or l' }).optional(),
    format: z.enum(['svg', 'html', 'zpl'], { error: 'format must be svg, html or zpl' }).default('svg'),
    dpi: z.enum(['203', '300'], { error: 'dpi must be 203 or 300' }).default('203'),
    /** The printed fields as a comma list (mgmt,imei,cust,model,qr,barcode), overriding the template's: a preview of unsaved edits. */
    fields: z
      .string()
      .max(120)
      .regex(/^[a-z]*(,[a-z]+)*$/, 'fields must be a comma list of mgmt, imei, cust, model, qr, barcode')
      .optional(),
  }),
};
export type LabelTemplateInput = z.input<typeof labelRequests.template>;
export type LabelLogInput = z.input<typeof labelRequests.log>;
export type LabelRenderQuery = z.input<typeof labelRequests.render>;

/** Success bodies of the erasure certificate routes (issue also names the ledger devices it marked). */
export const certResponses = {
  list: okList('certs', ErasureCert),
  one: ok({
    cert: ErasureCert,
    renumbered: z.array(z.looseObject({ no: str, formerNo: optStr })).optional(),
    /** The signature of the certificate's canonical record (absent on certificates issued before signing existed). */
    signature: z.looseObject({ alg: z.literal('EdDSA'), kid: str, jws: str }).optional(),
    /** The public verification page; null while central's public address is unknown. */
    verifyUrl: str.nullable().optional(),
  }),
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
