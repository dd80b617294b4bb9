import type { SyncCentral } from '../central';
import {
  SyncError,
  type EnrolAnswer,
  type EnrolBody,
  type LeaseAnswer,
  type LeaseBody,
  type PullAnswer,
  type PushAnswer,
  type PushBody,
  type SnapshotAnswer,
  type Transport,
} from '../protocol';
import type { Rng } from './rng.testkit';

export interface NetState {
  centralUp: boolean;
  /** Fault probabilities while faults are on. */
  faults: boolean;
}

export interface FaultCounts {
  dropped: number;
  lostResponse: number;
  duplicated: number;
  replayed: number;
  /** Pushes central refused for a stamp too far in its future (a bench clock ahead). */
  futureRefused: number;
}

const wire = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const down = () => new SyncError(0, 'central_unreachable');

/**
 * A bench's link to the in-process central with injected faults: requests dropped before central
 * sees them, answers lost after central committed, requests delivered twice, and old push batches
 * delivered again later (reordering).
 */
export class SimTransport implements Transport {
  private readonly stale: PushBody[] = [];

  constructor(
    private readonly central: () => SyncCentral,
    private readonly rng: Rng,
    private readonly net: NetState,
    private readonly online: () => boolean,
    readonly counts: FaultCounts,
  ) {}

  private async deliver<T>(run: () => Promise<T>): Promise<T> {
    if (!this.net.centralUp || !this.online()) throw down();
    const f = this.net.faults;
    if (f && this.rng.chance(0.04)) {
      this.counts.dropped += 1;
      throw down();
    }
    if (f && this.rng.chance(0.04)) {
      this.counts.duplicated += 1;
      await run().catch(() => undefined);
    }
    const answer = wire(
      await run().catch((err: unknown) => {
        if (err instanceof SyncError && err.error === 'hlc_in_future') this.counts.futureRefused += 1;
        throw err;
      }),
    );
    if (f && this.rng.chance(0.04)) {
      this.counts.lostResponse += 1;
      throw down();
    }
    return answer;
  }

  private async replayStale(token: string, schema: number): Promise<void> {
    if (!this.net.faults || this.stale.length === 0 || !this.rng.chance(0.2)) return;
    const body = this.stale.splice(this.rng.int(0, this.stale.length - 1), 1)[0] as PushBody;
    this.counts.replayed += 1;
    const c = this.central();
    await c.push(await c.authenticate(token, schema), body).catch(() => undefined);
  }

  enrol(body: EnrolBody, schema: number): Promise<EnrolAnswer> {
    return this.deliver(() => this.central().enrol({ name: '', series: {}, ...wire(body) }, schema));
  }

  push(token: string, body: PushBody, schema: number): Promise<PushAnswer> {
    return this.deliver(async () => {
      await this.replayStale(token, schema);
      if (this.net.faults && this.rng.chance(0.1)) this.stale.push(wire(body));
      const c = this.central();
      return c.push(await c.authenticate(token, schema), wire(body));
    });
  }

  pull(token: string, after: number, limit: number, schema: number): Promise<PullAnswer> {
    return this.deliver(async () => {
      const c = this.central();
      return c.pull(await c.authenticate(token, schema), after, limit);
    });
  }

  snapshot(token: string, afterKey: string, limit: number, schema: number): Promise<SnapshotAnswer> {
    return this.deliver(async () => {
      const c = this.central();
      return c.snapshot(await c.authenticate(token, schema), afterKey, limit);
    });
  }

  lease(token: string, body: LeaseBody, schema: number): Promise<LeaseAnswer> {
    return this.deliver(async () => {
      const c = this.central();
      return c.lease(await c.authenticate(token, schema), wire(body));
    });
  }
}
