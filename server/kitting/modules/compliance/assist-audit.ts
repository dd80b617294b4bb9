import type { Store } from '../../store/types';
import { issueNumber } from '../../store/series';
import { AUDIT_LOG, AUDIT_NUMBERS, nowStamp } from './compliance.service';

/**
 * A write made in assist mode, in the workspace's own audit log under the operator who made it
 * (`subadmin:<email>` or `admin`), before it runs: the workspace sees who acted in its name.
 */
export async function recordAssist(store: Store, ws: string, by: string, action: string): Promise<void> {
  await store.transact(ws, async (tx) => {
    const { n: seq, value: id } = await issueNumber(tx, AUDIT_NUMBERS);
    await tx.create(AUDIT_LOG, id, {
      id,
      seq,
      ts: nowStamp(),
      user: by.slice(0, 60),
      action: `代理操作 ${action}`.slice(0, 200),
      target: ws.slice(0, 200),
      result: '実行',
      cat: 'assist',
      created: Date.now(),
    });
  });
}
