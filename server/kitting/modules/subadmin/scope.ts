import type { Request } from 'express';
import type { AppContext } from '../../context';
import { forbidden } from '../../../core/errors';
import { principalOf, type Principal } from '../../security/auth';
import { P } from '../platform-collections';
import { declareLookup } from '../../store/lookups';
import type { Doc } from '../../store/types';
import { getTenant, listTenants } from '../admin/tenants.service';

export type Operator = Extract<Principal, { kind: 'admin' } | { kind: 'subadmin' }>;

export function operator(req: Request): Operator {
  const p = principalOf(req);
  if (p.kind === 'session') throw forbidden();
  return p;
}

export const operatorName = (op: Operator) => (op.kind === 'admin' ? 'admin' : op.email);
export const operatorRole = (op: Operator) => op.kind;

export function inScope(op: Operator, tenantId: string): boolean {
  return op.kind === 'admin' || op.tenants.includes(tenantId);
}

/** The tenant, if this operator may see it: a sub-admin reaching an unassigned tenant gets 403. */
export async function scopedTenant(app: AppContext, req: Request, tenantId: string): Promise<{ op: Operator; tenant: Doc }> {
  const op = operator(req);
  if (!inScope(op, tenantId)) throw forbidden('forbidden', { message: '担当外のテナントです' });
  return { op, tenant: await getTenant(app, tenantId) };
}

export async function scopedTenants(app: AppContext, op: Operator): Promise<Doc[]> {
  return (await listTenants(app)).filter((t) => inScope(op, String(t.id)));
}

/** A sub-admin as the console sees it: never the password hash. */
export function publicSub(s: Doc) {
  return { id: s.id, name: s.name, email: s.email, tenants: s.tenants, perms: s.perms, active: s.active !== false, created: s.created };
}

/** Sub-admins are found by email through its lookup index, never by reading them all. */
export const SUBADMINS_BY_EMAIL = declareLookup(P.subadmins, 'email');

/** Tenant fields only the admin may change (a sub-admin's write naming one is a 403). */
export const CORE_FIELDS = ['plan', 'seats', 'mrr', 'status', 'features', 'used', 'devices', 'clients', 'name'] as const;
/** A delete request's emailed code is valid for 10 minutes. */
export const DELETE_TTL = 10 * 60_000;
