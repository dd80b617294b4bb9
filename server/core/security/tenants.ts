import type { AppContext } from '../context';
import type { Doc } from '../store/types';
import { P, PLATFORM_WS } from './platform';

/** What a tenant record holds before anyone sets it: the plan a new workspace starts on. */
export function tenantDefaults(id: string, kind: string): Doc {
  return {
    id,
    kind,
    name: kind === 'anonymous' ? '匿名ワークスペース' : '新規テナント',
    plan: 'Starter',
    seats: 3,
    used: 0,
    status: kind === 'anonymous' ? 'active' : 'trial',
    email: '',
    devices: 0,
    mrr: 0,
    features: {},
    clients: [],
    created: Date.now(),
  };
}

/** Register a workspace in the platform tenant list (anonymous, account, admin-created, signup). */
export async function registerWorkspace(app: AppContext, id: string, kind: string, fields: Doc = {}): Promise<Doc> {
  return app.store.transact(PLATFORM_WS, async (tx) => {
    const cur = await tx.get(P.tenants, id);
    if (cur) return (await tx.patch(P.tenants, id, fields)) as Doc;
    return tx.put(P.tenants, id, { ...tenantDefaults(id, kind), ...fields });
  });
}
