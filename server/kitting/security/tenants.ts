import type { AppContext } from '../context';
import type { Doc } from '../store/types';
import { P, PLATFORM_WS } from './platform';

/** Register a workspace in the platform tenant list (anonymous, account, admin-created, signup). */
export async function registerWorkspace(app: AppContext, id: string, kind: string, fields: Doc = {}): Promise<Doc> {
  return app.store.transact(PLATFORM_WS, async (tx) => {
    const cur = await tx.get(P.tenants, id);
    if (cur) return (await tx.patch(P.tenants, id, fields)) as Doc;
    return tx.put(P.tenants, id, { id, kind, ...app.tenantDefaults?.(kind), created: Date.now(), ...fields });
  });
}
