/** Wire contract of bench ↔ central sync: the bench's own status routes and central's /api/sync/v1 protocol. */
import { z } from 'zod';
import { num, ok, okList, str } from '../primitives';
import { HLC_PATTERN } from '../../hlc';

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
  v1Enrol: timed({
    token: str,
    workspace: str,
    bench: str,
    renumber: z.record(z.string(), num).optional(),
    blocks: z.array(Lease),
    /** Central's public address (KITTING_PUBLIC_URL): the base of the verification links a bench prints. */
    publicUrl: str.nullable().optional(),
  }),
  v1Push: timed({ acked: num, applied: num, duplicate: z.boolean() }),
  v1Changes: timed({ changes: z.array(z.looseObject({ seq: num, coll: str, id: str })), next: num, more: z.boolean(), resync: z.boolean().optional() }),
  v1Snapshot: timed({ records: z.array(z.looseObject({ coll: str, id: str })), nextKey: str.nullable(), serverSeq: num }),
  v1Lease: timed({ blocks: z.array(Lease), series: z.array(str) }),
  /** A portal link central minted for the bench's workspace, on central's public address. */
  v1PortalLink: timed({ url: str, link: str, expires: str }),
  /** POST /api/sync/v1/cert-key: the key is published; central's public address comes back. */
  v1CertKey: timed({ kid: str, publicUrl: str.nullable() }),
};

/** Most changes one push batch may carry. */
export const MAX_BATCH = 500;
/** Changes one page of GET changes answers when no limit is given. */
export const PULL_PAGE = 2000;
/** Records one page of GET snapshot answers when no limit is given. */
export const SNAPSHOT_PAGE = 5000;


export const changeSchema = z.object({
  seq: z.number().int().nonnegative(),
  coll: z.string().min(1).max(100),
  id: z.string().min(1).max(300),
  hlc: z.string().regex(HLC_PATTERN),
  fields: z.record(z.string(), z.unknown()),
});

export const pushBody = z.object({
  batch: z.string().min(1).max(100),
  changes: z.array(changeSchema).max(MAX_BATCH),
});

/** The public half of a bench's certificate signing key (never the private part: unknown members are dropped). */
export const certKeyBody = z.object({
  kid: z.string().max(64),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string().max(64) }),
  alias: z.string().max(80).nullable().optional(),
});

export const enrolBody = z.object({
  code: z.string().min(1).max(100),
  bench: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().max(100).default(''),
  /** The bench's local series levels, so central never issues a number the bench already used. */
  series: z.record(z.string().max(100), z.number().int().nonnegative()).default({}),
  /**
   * The bench's series levels right after its demo data was loaded: its own numbers lie above them.
   * Where central issued numbers in the same range, it answers a renumbering plan.
   */
  base: z.record(z.string().max(100), z.number().int().nonnegative()).optional(),
  /** Size of the regular blocks the bench keeps (its KITTING_LEASE_BLOCK). */
  block: z.number().int().min(1).max(10000).optional(),
  /**
   * The public half of the bench's certificate signing key (Ed25519 JWK and its RFC 7638 thumbprint as kid),
   * published by central for the workspace; `alias` is the bench's standalone workspace id its earlier
   * certificates were signed under.
   */
  certKey: certKeyBody.optional(),
});

/** POST /api/sync/v1/portal-link: the portal (key) of the bench's workspace to link to. */
export const portalLinkBody = z.object({ key: z.string().min(1).max(40) });

export const leaseBody = z.object({
  requests: z
    .array(
      z.object({
        series: z.string().min(1).max(100),
        size: z.number().int().min(1).max(10000),
        start: z.number().int().nullable(),
        atLeast: z.number().int().nonnegative(),
        overflow: z.boolean().optional(),
      }),
    )
    .max(500),
});

/** A snapshot cursor is '' or the `nextKey` central answered: a JSON pair [collection, id]. */
const snapshotCursor = z
  .string()
  .max(1000)
  .default('')
  .refine((v) => {
    if (v === '') return true;
    try {
      const k: unknown = JSON.parse(v);
      return Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string';
    } catch {
      return false;
    }
  }, 'after must be a cursor from a previous snapshot page');

/** Request schemas of the sync routes: the bench's own (enrol from the settings screen) and central's /api/sync/v1. */
export const syncRequests = {
  /** POST /api/sync/enrol on a bench. */
  enrol: z.object({
    central: z.string().trim().regex(/^https?:\/\/[^\s]+$/, 'central must be an http(s) URL').max(500),
    code: z.string().trim().min(1).max(100),
    name: z.string().max(100).default(''),
  }),
  /** POST /api/sync/benches/{bench}/revoke. */
  bench: z.object({ bench: z.string().min(1).max(64) }),
  v1Enrol: enrolBody,
  v1Push: pushBody,
  v1Lease: leaseBody,
  v1PortalLink: portalLinkBody,
  v1CertKey: certKeyBody,
  /** GET /api/sync/v1/changes. */
  v1Changes: z.object({
    after: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().positive().default(PULL_PAGE),
  }),
  /** GET /api/sync/v1/snapshot. */
  v1Snapshot: z.object({
    after: snapshotCursor,
    limit: z.coerce.number().int().positive().default(SNAPSHOT_PAGE),
  }),
};
export type SyncEnrolRequest = z.input<typeof syncRequests.enrol>;
