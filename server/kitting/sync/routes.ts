import type { RouteDef } from '../http/define-route';
import { benchSyncRoutes } from './bench.routes';
import { centralSyncRoutes } from './central.routes';

/**
 * Every sync route (mounted by server/kitting/modules/index.ts).
 *
 * Protocol (docs/DESIGN.md §4), central side under /api/sync/v1, bench token in `x-kitting-bench-token`,
 * bench schema version in `x-kitting-schema` (426 when newer than central's), `serverTime` in every
 * answer (the bench keeps its clock offset from it):
 *   POST enrol {code, bench, name, series}     one-time code -> revocable token bound to (workspace, bench)
 *   POST push  {batch, changes[<=500]}         idempotent by batch id and by per-bench change seq;
 *                                              422 hlc_in_future for stamps > 2 min ahead of central
 *   GET  changes?after=<server_seq>&limit=     pages of the workspace's log, never echoing a bench's own
 *   GET  snapshot?after=<key>&limit=           whole records with stamps (new bench), then follow `changes`
 *   POST lease {requests[{series,size,start,atLeast}]}  number blocks; the answer names every series
 * Number series on an enrolled bench come from leased blocks (default 100, topped up below 30%; for a
 * periodic series such as invoice:2611 the current and next period are kept leased). A series first
 * used while no block of it is leased answers 503 series_exhausted naming it, and the loop leases it at
 * the next contact with central (at once when online): no number is ever guessed.
 */
export const syncRoutes: RouteDef[] = [...benchSyncRoutes, ...centralSyncRoutes];
