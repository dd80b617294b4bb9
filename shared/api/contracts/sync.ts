/** Wire contract of bench ↔ central sync: the bench's own status routes and central's /api/sync/v1 protocol. */
import { z } from 'zod';
import { num, ok, okList, str } from '../primitives';

const Lease = z.looseObject({ series: str });
const timed = <T extends z.ZodRawShape>(shape: T) => ok({ serverTime: num }).extend(shape);

/** A bench's sync state (GET /api/sync/status, POST /api/sync/now and /api/sync/enrol). */
export const SyncStatus = ok({
  enrolled: z.boolean(),
  central: str.nullable(),
  pending: num,
  lastPush: str.nullable(),
  lastPull: str.nullable(),
  lastError: str.nullable(),
  leases: z.array(z.unknown()),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

/** Success bodies of the sync routes. */
export const syncResponses = {
  status: SyncStatus.extend({ mode: z.enum(['bench', 'central']).optional() }),
  now: SyncStatus,
  enrol: SyncStatus,
  enrolCode: ok({ code: str, expiresAt: str }),
  benches: okList('benches', z.looseObject({})),
  revoke: ok({ revoked: str }),
  v1Enrol: timed({ token: str, workspace: str, bench: str, renumber: z.record(z.string(), num).optional(), blocks: z.array(Lease) }),
  v1Push: timed({ acked: num, applied: num, duplicate: z.boolean() }),
  v1Changes: timed({ changes: z.array(z.looseObject({ seq: num, coll: str, id: str })), next: num, more: z.boolean(), resync: z.boolean().optional() }),
  v1Snapshot: timed({ records: z.array(z.looseObject({ coll: str, id: str })), nextKey: str.nullable(), serverSeq: num }),
  v1Lease: timed({ blocks: z.array(Lease), series: z.array(str) }),
};
