import { z } from 'zod';
import type { LeaseBlock, WireChange, WireRecord } from '../../core/store/types';

/** Versioned prefix of the central sync routes. */
export const SYNC_V1 = '/api/sync/v1';
/** The bench's schema version, sent with every sync request (central answers 426 when it is newer). */
export const SCHEMA_HEADER = 'x-kitting-schema';
/** The bench token (not a Bearer header: those are account sessions). */
export const TOKEN_HEADER = 'x-kitting-bench-token';

/** Most changes one push batch may carry. */
export const MAX_BATCH = 500;
/** Changes a bench sends per batch. */
export const PUSH_BATCH = 500;
export const MAX_PULL = 5000;
export const PULL_PAGE = 2000;
export const MAX_SNAPSHOT = 10000;
export const SNAPSHOT_PAGE = 5000;
/** Central refuses stamps further than this in its future. */
export const FUTURE_LIMIT_MS = 120_000;
/**
 * Numbers leased per block by default; topped up when fewer than 30% remain. Besides its blocks a
 * bench holds each series' declared reserve (server/core/store/series.ts), used once the blocks are spent.
 */
export const DEFAULT_BLOCK = 100;
export const TOP_UP_BELOW = 0.3;

const HLC_RE = /^\d{15}:\d{6}:[^:]{1,64}$/;

export const changeSchema = z.object({
  seq: z.number().int().nonnegative(),
  coll: z.string().min(1).max(100),
  id: z.string().min(1).max(300),
  hlc: z.string().regex(HLC_RE),
  fields: z.record(z.string(), z.unknown()),
});

export const pushBody = z.object({
  batch: z.string().min(1).max(100),
  changes: z.array(changeSchema).max(MAX_BATCH),
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
});

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

export type PushBody = z.infer<typeof pushBody>;
export type EnrolBody = z.input<typeof enrolBody>;
/** An enrolment request as central reads it (defaults applied). */
export type EnrolRequest = z.output<typeof enrolBody>;
export type LeaseBody = z.infer<typeof leaseBody>;

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
