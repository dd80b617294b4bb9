import { createHash, randomBytes } from 'node:crypto';
import { stampProblem } from '../../../shared/hlc';
import { DEFAULT_POLICY, type CompactionPolicy, type CompactionReport } from '../store/compaction';
import { numberedSeries, type SeriesRegistry } from '../store/series';
import type { BenchRow, LeaseBlock, LeaseRequest, Store } from '../store/types';
import { LeaseLedger } from './lease-ledger';
import { NumberBounds } from './number-bounds';
import {
  DEFAULT_BLOCK,
  FUTURE_LIMIT_MS,
  MAX_PULL,
  MAX_SNAPSHOT,
  SyncError,
  type EnrolAnswer,
  type EnrolRequest,
  type LeaseAnswer,
  type LeaseBody,
  type PullAnswer,
  type PushAnswer,
  type PushBody,
  type SnapshotAnswer,
} from './protocol';

/** One-time enrolment codes stay valid this long. */
const CODE_TTL_MS = 24 * 3_600_000;

export const hashSecret = (s: string) => createHash('sha256').update(s).digest('hex');

/** Readable one-time code: 4+4 characters without look-alikes (0/O, 1/I). */
function newCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

export const normaliseCode = (code: string) => code.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * Central side of the protocol, transport-free: the HTTP routes and the simulation call the same
 * methods. Every answer carries central's time.
 */
export class SyncCentral {
  constructor(
    private readonly store: Store,
    /** The numbered series an enrolled bench holds blocks of. */
    private readonly series: SeriesRegistry = numberedSeries,
  ) {
    this.bounds = new NumberBounds(series, () => this.now());
    this.ledger = new LeaseLedger(store, series);
  }

  private readonly bounds: NumberBounds;
  private readonly ledger: LeaseLedger;

  private get r() {
    return this.store.replica;
  }

  now(): number {
    return this.r.now();
  }

  /** 426 for a bench whose schema is newer than central's. */
  checkSchema(benchSchema: number): void {
    const own = this.r.schemaVersion();
    if (Number.isFinite(benchSchema) && benchSchema > own) throw new SyncError(426, 'upgrade_required', this.now());
  }

  async createCode(ws: string): Promise<{ code: string; expiresAt: string }> {
    const code = newCode();
    const expires = Date.now() + CODE_TTL_MS;
    await this.r.createEnrolCode(ws, hashSecret(normaliseCode(code)), expires);
    return { code, expiresAt: new Date(expires).toISOString() };
  }

  async enrol(body: EnrolRequest, schema: number): Promise<EnrolAnswer> {
    this.checkSchema(schema);
    const codeHash = hashSecret(normaliseCode(body.code));
    const target = await this.r.enrolCodeWorkspace(codeHash, Date.now());
    if (!target) throw new SyncError(403, 'enrol_code_invalid', this.now());
    // Levels beyond what central can defend are refused before the code is spent.
    const before = await this.r.localSeries(target);
    const named = this.bounds.enrolLevels(before, body.series, body.base ?? null);
    const ws = await this.r.redeemEnrolCode(codeHash, body.bench, Date.now());
    if (!ws) throw new SyncError(403, 'enrol_code_invalid', this.now());
    const token = `kbt_${randomBytes(32).toString('base64url')}`;
    await this.r.saveBench(ws, body.bench, hashSecret(token), body.name);
    // Numbers the bench issued before it was enrolled are never issued again; where central issued
    // the same numbers meanwhile, the bench's move to a range reserved here (see numbered.ts).
    const renumber = await this.r.reserveForBench(ws, named.series, named.base);
    // The bench's own numbers from before enrolment are its to push: above central's level, or moved
    // to the fresh range central reserved for them (renumber).
    await this.ledger.record(ws, body.bench, Object.entries(named.series).map(([series, level]) => {
      const cur = before[series] ?? 0;
      const offset = renumber[series];
      if (offset === undefined) return { series, lo: cur + 1, hi: level };
      const from = named.base?.[series] ?? 0;
      return { series, lo: from + offset + 1, hi: level + offset };
    }));
    // A bench is never enrolled without numbers: a block and the reserve of every series it can issue.
    const size = body.block ?? DEFAULT_BLOCK;
    const requests: LeaseRequest[] = this.series.countersAt(this.now()).flatMap((c) => [
      { series: c.counter, size, start: c.start, atLeast: 0 },
      { series: c.counter, size: c.reserve, start: c.start, atLeast: 0, overflow: true },
    ]);
    const blocks = await this.leaseAll(ws, body.bench, requests);
    return { token, workspace: ws, bench: body.bench, renumber, blocks, serverTime: this.now() };
  }

  private async leaseAll(ws: string, bench: string, requests: LeaseRequest[]): Promise<LeaseBlock[]> {
    const blocks: LeaseBlock[] = [];
    for (const req of requests) {
      // A declared series starts where its declaration says, even before central issued one.
      const start = req.start ?? this.series.find(req.series)?.series.start ?? null;
      const b = await this.r.leaseBlock(ws, { ...req, start });
      if (b) blocks.push(b);
    }
    await this.ledger.record(ws, bench, blocks);
    return blocks;
  }

  /** The bench a token belongs to; 401 for an unknown or revoked token (refused at once). */
  async authenticate(token: string | undefined, schema: number): Promise<BenchRow> {
    this.checkSchema(schema);
    const row = token ? await this.r.benchByToken(hashSecret(token)) : null;
    if (!row) throw new SyncError(401, 'bench_token_invalid', this.now());
    if (row.revoked) throw new SyncError(401, 'bench_revoked', this.now());
    return row;
  }

  async push(bench: BenchRow, body: PushBody): Promise<PushAnswer> {
    // Stamps that would poison every clock are refused: malformed, a counter at its limit, or a time
    // beyond the skew window. Central stores (and so hands on) only stamps it would accept itself.
    const now = this.now();
    for (const c of body.changes) {
      const problem = stampProblem(c.hlc, now, FUTURE_LIMIT_MS);
      if (problem) throw new SyncError(422, problem, now);
    }
    // A new numbered record must carry a number leased to this bench (central may have issued any other).
    await this.ledger.checkPush(bench.ws, bench.bench, body.changes, this.now());
    const out = await this.r.pushBatch(bench.ws, bench.bench, body.batch, body.changes);
    return { ...out, serverTime: this.now() };
  }

  async pull(bench: BenchRow, after: number, limit: number): Promise<PullAnswer> {
    if (after < (await this.r.compactedThrough(bench.ws))) {
      // The bench is behind the compaction horizon: it loads a snapshot, then follows from its end.
      await this.r.touchBench(bench.ws, bench.bench);
      return { changes: [], next: after, more: false, resync: true, serverTime: this.now() };
    }
    const n = Math.max(1, Math.min(MAX_PULL, limit));
    const last = await this.r.lastSeq(bench.ws);
    const changes = await this.r.changesSince(bench.ws, after, n, bench.bench);
    const tail = changes[changes.length - 1];
    // A page cut short (by count or size) before the workspace's last seq: ask again from its tail.
    const more = tail !== undefined && tail.seq < last;
    // The bench holds every change up to `after`: the log below the oldest such cursor may be compacted.
    await this.r.touchBench(bench.ws, bench.bench, after);
    // A short page has read everything up to `last` (read first, so nothing committed later is skipped).
    return { changes, next: more && tail ? tail.seq : Math.max(after, last), more, serverTime: this.now() };
  }

  async snapshot(bench: BenchRow, afterKey: string, limit: number): Promise<SnapshotAnswer> {
    const n = Math.max(1, Math.min(MAX_SNAPSHOT, limit));
    const serverSeq = await this.r.lastSeq(bench.ws);
    const page = await this.r.snapshotPage(bench.ws, afterKey, n);
    return { ...page, serverSeq, serverTime: this.now() };
  }

  async lease(bench: BenchRow, body: LeaseBody): Promise<LeaseAnswer> {
    const requests = this.bounds.leases(await this.r.localSeries(bench.ws), body.requests);
    const blocks = await this.leaseAll(bench.ws, bench.bench, requests);
    return { blocks, series: await this.r.seriesNames(bench.ws), serverTime: this.now() };
  }

  /** Compact the change log of every workspace (see server/store/compaction.ts). */
  async compact(policy: Partial<CompactionPolicy> = {}): Promise<CompactionReport[]> {
    const full: CompactionPolicy = { ...DEFAULT_POLICY, now: this.now(), ...policy };
    const out: CompactionReport[] = [];
    for (const ws of await this.r.logWorkspaces()) out.push(await this.r.compactLog(ws, full));
    return out;
  }

  /** Compact every `everyMs` in the background (central mode); returns the stop function. */
  compactEvery(everyMs: number, policy: Partial<CompactionPolicy> = {}, onError: (err: unknown) => void = () => undefined): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.compact(policy)
        .catch(onError)
        .finally(() => {
          running = false;
        });
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  listBenches(ws: string): Promise<BenchRow[]> {
    return this.r.listBenches(ws);
  }

  revoke(ws: string, bench: string): Promise<boolean> {
    return this.r.revokeBench(ws, bench);
  }
}
