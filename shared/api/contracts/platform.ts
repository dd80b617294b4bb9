/** Wire contract of the customer portal and platform administration (tenants, sub-admins, backups). */
import { z } from 'zod';
import { json, oneOf, text } from '../../fields';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';
import { Ticket } from './work';

/** A device as its customer sees it: no storage place or other internal field. */
export const PortalDevice = z.strictObject({ imei: str, model: optStr, status: optStr, chip: optStr });
/** The documents a portal offers for download (each downloaded with the portal's own token). */
export const PortalDocuments = z.strictObject({
  certs: z.array(z.strictObject({ no: str, date: str, count: num, method: str })),
  invoices: z.array(z.strictObject({ id: str, month: str, due: str, amount: num, paid: z.boolean() })),
});
export const PortalView = z.looseObject({
  client: z.looseObject({ name: optStr, slug: optStr }),
  published: z.boolean(),
  last: optStr,
  devices: z
    .looseObject({ total: num.nullable().optional(), active: num.nullable().optional(), list: z.array(PortalDevice).optional(), shown: num.optional() })
    .optional(),
  tickets: z.array(Ticket).optional(),
  documents: PortalDocuments.optional(),
});
export type PortalView = z.infer<typeof PortalView>;
/** One customer's portal state (GET /api/portals `state[key]`, POST /api/portal/*). */
export const PortalEntry = z.looseObject({ id: str, name: optStr, slug: optStr, suffix: optStr, published: z.boolean().optional(), last: optStr });
export type PortalEntry = z.infer<typeof PortalEntry>;

/** What an operator sets on a portal (published, the last-update label); name and slug come from the server. */
export const portalFields = { published: json(z.boolean()), last: text(40) };
/** The kinds of inquiry a portal visitor may send (anything else reads as 問合せ). */
export const PORTAL_INQUIRY_KINDS = ['問合せ', '故障', '交換', '紛失', '返却', 'その他'] as const;
/** Request schemas of the customer portal routes. */
export const portalRequests = {
  /** POST /api/portal/inquiry: t (the portal token) may come in the query instead. */
  inquiry: z.object({
    t: z.unknown().optional(),
    kind: oneOf(PORTAL_INQUIRY_KINDS, '問合せ').zod.optional(),
    message: z.unknown().optional(),
    name: text(60).zod.optional(),
    email: text(120).zod.optional(),
  }),
  /** POST /api/portal/issue: a portal key, or a customer id (cust-…) whose portal is created unpublished when it has none. */
  issue: z.object({ custId: text(40).zod.optional(), id: text(40).zod.optional() }),
  /** GET /api/portal/cert/{no}/pdf and /api/portal/invoice/{id}/pdf: t is the portal token. */
  docParams: z.object({ id: z.string().min(1).max(60) }),
  docQuery: z.object({ t: z.string().max(4096).optional() }),
  /** POST /api/portal/{custId}: action toggle (default) / ticket / dl / touch. */
  action: z.object({ action: z.unknown().optional(), published: portalFields.published.zod.optional(), last: portalFields.last.zod.optional() }),
  actionParams: z.object({ custId: z.string().min(1).max(40) }),
};
export type PortalInquiry = Omit<z.input<typeof portalRequests.inquiry>, 't'>;
export type PortalAction = z.input<typeof portalRequests.action>;

export const Tenant = z.looseObject({
  id: str,
  name: optStr,
  plan: optStr,
  seats: num.optional(),
  used: num.optional(),
  status: optStr,
  email: optStr,
  devices: num.optional(),
  mrr: num.optional(),
  clients: z.array(str).optional(),
});
export type Tenant = z.infer<typeof Tenant>;
export const TenantStats = z.looseObject({
  total: num.optional(),
  active: num.optional(),
  trial: num.optional(),
  suspended: num.optional(),
  mrr: num.optional(),
  devices: num.optional(),
  seats: num.optional(),
  sites: num.optional(),
  clients: num.optional(),
});
export const SubAdmin = z.looseObject({
  id: str,
  name: optStr,
  email: optStr,
  tenants: z.array(str).optional(),
  perms: z.looseObject({ canDelete: z.boolean().optional() }).optional(),
  active: z.boolean().optional(),
});
export type SubAdmin = z.infer<typeof SubAdmin>;
export const Backup = z.looseObject({ id: str, ts: num.optional(), by: optStr, reason: optStr, sites: num.optional(), tenantId: optStr });
export type Backup = z.infer<typeof Backup>;
