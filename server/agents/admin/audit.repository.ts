import type { AgentsDb } from '../schema';

/** The operator audit log: append-only, kept after its target is gone. */

const AUDIT_COLUMNS = ['id', 'admin_id', 'admin_email', 'action', 'target_type', 'target_id', 'detail', 'created_at'] as const;

export async function insertAudit(
  db: AgentsDb,
  e: { admin_id: string; admin_email: string; action: string; target_type: string; target_id: string; detail: string; created_at: number },
): Promise<void> {
  await db.insertInto('admin_audit').values(e).execute();
}

export async function recentAudit(db: AgentsDb, limit: number) {
  return db.selectFrom('admin_audit').select(AUDIT_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
