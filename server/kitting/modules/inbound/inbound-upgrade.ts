import type { Doc, Store } from '../../store/types';
import { atOpen, atScanned, INBOUND_LINES } from './inbound.service';

const DONE = 'inbound_lines_at_backfilled';

/**
 * Lines stored before the `at` lookup (they were found by `list` and `hit`, the list id a scanned line
 * carried) get their `at` once, at start: `<list>:scanned` when scanned, `<list>:open` otherwise. Without
 * it a list imported by an earlier release would show no lines and count nothing received.
 */
export async function backfillInboundAt(store: Store): Promise<number> {
  if (await store.meta(DONE)) return 0;
  let patched = 0;
  for (const ws of await store.replica.logWorkspaces()) {
    patched += await store.transact(ws, async (tx) => {
      let n = 0;
      for (const l of await tx.list<Doc>(INBOUND_LINES)) {
        if (typeof l.at === 'string' || typeof l.list !== 'string') continue;
        const scanned = (typeof l.hit === 'string' && l.hit !== '') || l.state === 'received' || l.state === 'unexpected';
        await tx.patch(INBOUND_LINES, String(l.id), { at: scanned ? atScanned(l.list) : atOpen(l.list) });
        n++;
      }
      return n;
    });
  }
  await store.setMeta(DONE, String(Date.now()));
  return patched;
}
