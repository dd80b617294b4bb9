import type { AppContext } from '../context';
import { randomKey } from '../../core/ids';
import type { Doc } from '../store/types';
import { P, PLATFORM_WS } from './platform';

/** One line of the platform's activity log (who did what to which tenant). */
export interface ActivityEntry {
  by: string;
  role: 'admin' | 'subadmin' | 'account' | 'system';
  action: string;
  tenantId?: string;
  tenantName?: string;
  detail?: string;
  subId?: string;
}

export async function logActivity(app: AppContext, e: ActivityEntry): Promise<void> {
  const id = randomKey('ac-');
  await app.store.transact(PLATFORM_WS, (tx) =>
    tx.put(P.activity, id, { id, ts: Date.now(), tenantId: '', tenantName: '', detail: '', ...e }),
  );
}

/** A security event (sign-in failure, lock, key use): stored on the platform and written to the log. */
export async function securityEvent(app: AppContext, type: string, detail: Doc): Promise<void> {
  const id = randomKey('se-');
  await app.store.transact(PLATFORM_WS, (tx) => tx.put(P.security, id, { id, ts: Date.now(), type, ...detail }));
  app.log(`security ${type} ${Object.entries(detail).map(([k, v]) => `${k}=${String(v)}`).join(' ')}`);
}
