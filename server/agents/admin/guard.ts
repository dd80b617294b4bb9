import type { AgentsContext, Caller } from '../context';
import { insertAudit } from './audit.repository';
import { emailOfUser } from './users.repository';

export interface AuditEntry {
  id: number;
  admin_id: string;
  admin_email: string;
  action: string;
  target_type: string;
  target_id: string;
  detail: string;
  created_at: number;
}

/** Records what an operator did; kept after the target is gone. */
export async function audit(ctx: AgentsContext, caller: Caller, action: string, targetType: string, targetId: string, detail: Record<string, unknown> = {}): Promise<void> {
  const email = (await emailOfUser(ctx.db, caller.userId)) ?? '';
  await insertAudit(ctx.db, { admin_id: caller.userId, admin_email: email, action, target_type: targetType, target_id: targetId, detail: JSON.stringify(detail), created_at: Date.now() });
}

export function presentAudit(a: AuditEntry) {
  let detail: unknown = {};
  try {
    detail = JSON.parse(a.detail);
  } catch {
    detail = {};
  }
  return { id: a.id, admin: { id: a.admin_id, email: a.admin_email }, action: a.action, target: { type: a.target_type, id: a.target_id }, detail, created_at: new Date(a.created_at).toISOString() };
}

export const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/** Page and size of an operator listing. */
export function paging(q: { limit?: number; page?: number }) {
  const limit = Math.min(200, Math.max(1, q.limit ?? 50));
  const page = Math.max(1, q.page ?? 1);
  return { limit, page, offset: (page - 1) * limit };
}
