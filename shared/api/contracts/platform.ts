/** Wire contract of the customer portal and platform administration (tenants, sub-admins, backups). */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';
import { Ticket } from './work';

export const PortalDevice = z.looseObject({ imei: str, model: optStr, status: optStr, chip: optStr, loc: optStr });
export const PortalView = z.looseObject({
  client: z.looseObject({ name: optStr, slug: optStr }),
  published: z.boolean(),
  last: optStr,
  devices: z
    .looseObject({ total: num.nullable().optional(), active: num.nullable().optional(), list: z.array(PortalDevice).optional(), shown: num.optional() })
    .optional(),
  tickets: z.array(Ticket).optional(),
});
export type PortalView = z.infer<typeof PortalView>;
/** One customer's portal state (GET /api/portals `state[key]`, POST /api/portal/*). */
export const PortalEntry = z.looseObject({ id: str, name: optStr, slug: optStr, suffix: optStr, published: z.boolean().optional(), last: optStr });
export type PortalEntry = z.infer<typeof PortalEntry>;

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
