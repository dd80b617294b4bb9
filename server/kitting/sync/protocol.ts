import type { z } from 'zod';
import type { LeaseBlock, WireChange, WireRecord } from '../store/types';
import { certKeyBody, changeSchema, enrolBody, leaseBody, portalLinkBody, MAX_BATCH, PULL_PAGE, pushBody, SNAPSHOT_PAGE } from '../../../shared/api/contracts/sync';

/** Versioned prefix of the central sync routes. */
export const SYNC_V1 = '/api/sync/v1';
/** The bench's schema version, sent with every sync request (central answers 426 when it is newer). */
export const SCHEMA_HEADER = 'x-kitting-schema';
/** The bench token (not a Bearer header: those are account sessions). */
export const TOKEN_HEADER = 'x-kitting-bench-token';

/** Most changes one push batch may carry (the request schemas are the contract's, shared/api/contracts/sync.ts). */
export { pushBody, enrolBody, leaseBody, portalLinkBody };
export interface PortalLinkAnswer extends Timed {
  url: string;
  link: string;
  expires: string;
}
/** Changes a bench sends per batch. */
export const PUSH_BATCH = 500;
export const MAX_PULL = 5000;
export { PULL_PAGE };
export const MAX_SNAPSHOT = 10000;
export { SNAPSHOT_PAGE };
/** Central refuses stamps further than this in its future. */
export const FUTURE_LIMIT_MS = 120_000;
/**
 * Numbers leased per block by default; topped up when fewer than 30% remain. Besides its blocks a
 * bench holds each series' declared reserve (server/kitting/store/series.ts), used once the blocks are spent.
 */
export const DEFAULT_BLOCK = 100;
export const TOP_UP_BELOW = 0.3;

export type PushBody = z.infer<typeof pushBody>;
export type EnrolBody = z.input<typeof enrolBody>;
/** An enrolment request as central reads it (defaults applied). */
export type EnrolRequest = z.output<typeof enrolBody>;
export type LeaseBody = z.infer<typeof leaseBody>;
export type CertKeyBody = z.infer<typeof certKeyBody>;
export { certKeyBody };

export interface Timed {
  serverTime: number;
}
export interface EnrolAnswer extends Timed {
  token: string;
  workspace: string;
  bench: string;
  /**
   * Series whose numbers central issued too since the bench's base: the bench adds the offset to
   * each of its numbers above the base before its records join the workspace (series -> offset).
   */
  renumber?: Record<string, number>;
  /**
   * Blocks and reserves of every numbered series the bench can issue (each series, and the current and
   * next period of periodic ones), kept by the bench in the transaction that records its token.
   */
  blocks: LeaseBlock[];
  /** Central's public address (KITTING_PUBLIC_URL), kept by the bench for the verification links it prints. */
  publicUrl?: string | null;
}
export interface PushAnswer extends Timed {
  acked: number;
  applied: number;
  duplicate: boolean;
}
export interface PullAnswer extends Timed {
  changes: WireChange[];
  /** Cursor to ask from next. */
  next: number;
  more: boolean;
  /** The cursor lies below the compaction horizon (server/store/compaction.ts): load a snapshot, then follow. */
  resync?: boolean;
}
export interface SnapshotAnswer extends Timed {
  records: WireRecord[];
  nextKey: string | null;
  /** Cursor to pull from once every page is loaded. */
  serverSeq: number;
}
export interface CertKeyAnswer extends Timed {
  kid: string;
  publicUrl: string | null;
}
export interface LeaseAnswer extends Timed {
  blocks: LeaseBlock[];
  /** Every series of the workspace, so the bench keeps blocks of each. */
  series: string[];
}

/** A refused sync call: HTTP status and the contract's error string. */
export class SyncError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly serverTime: number | null = null,
  ) {
    super(`${status} ${error}`);
  }
}

/** How a bench reaches central: HTTP in production, direct calls with faults in the simulation. */
export interface Transport {
  enrol(body: EnrolBody, schema: number): Promise<EnrolAnswer>;
  push(token: string, body: PushBody, schema: number): Promise<PushAnswer>;
  pull(token: string, after: number, limit: number, schema: number): Promise<PullAnswer>;
  snapshot(token: string, afterKey: string, limit: number, schema: number): Promise<SnapshotAnswer>;
  lease(token: string, body: LeaseBody, schema: number): Promise<LeaseAnswer>;
  /** A customer-portal link minted by central (on its public address) for the bench's workspace. */
  portalLink?(token: string, key: string, schema: number): Promise<PortalLinkAnswer>;
  /** Publish the bench's certificate signing key (benches enrolled before keys existed); absent in the simulation. */
  certKey?(token: string, body: CertKeyBody, schema: number): Promise<CertKeyAnswer>;
}

/** Most JSON a push batch carries (central's body limit is 9 MB; a company logo alone may be 6 MB). */
const PUSH_BYTES = 4 * 1024 * 1024;

/** The first changes of a push batch that stay under PUSH_BYTES (always at least one). */
export function bytesCapped(changes: WireChange[]): WireChange[] {
  let total = 0;
  for (let i = 0; i < changes.length; i += 1) {
    total += JSON.stringify(changes[i]).length;
    if (total > PUSH_BYTES && i > 0) return changes.slice(0, i);
  }
  return changes;
}

/** A sync failure as one line for the log and the bench's status. */
export function describe(err: unknown): string {
  if (err instanceof SyncError) return err.error;
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: { code?: string } }).cause;
    return cause?.code ? `${err.message} (${cause.code})` : err.message;
  }
  return String(err);
}
