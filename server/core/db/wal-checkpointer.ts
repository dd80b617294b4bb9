import { WorkerPool } from '../work/worker-pool';

/**
 * Copies a SQLite database's write-ahead log back into its file on a worker thread. SQLite does this in
 * the commit that grows the log past its threshold (`wal_autocheckpoint`), on the thread that commits: it
 * copies every page written since the last checkpoint and waits for fsync, so one request in several hundred
 * held the event loop for tens of milliseconds (perf/inbound.bench.ts). Here, once `every` records have been
 * written since the last pass (a record is a few pages of log; the caller says how many a commit wrote), a
 * worker with its own connection runs a PASSIVE checkpoint (it neither waits for nor blocks the server's
 * writes), at most one at a time. The threshold stays as the fallback: when the log cannot be reset under a
 * steady stream of writes (the worker copies, the server keeps appending), the server's own checkpoint finds
 * nearly everything already copied and only finishes the tail. The worker starts with the first pass, so a
 * database written a few hundred times (a test) never starts one.
 */
export interface WalCheckpointerOptions {
  /** Records written between two passes (default 400). */
  every?: number;
}

const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

export class WalCheckpointer {
  private readonly every: number;
  private pool: WorkerPool | null = null;
  private written = 0;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Passes run and their last answer (frames in the log, frames copied), for tests and benchmarks. */
  readonly stats = { passes: 0, failures: 0, log: 0, checkpointed: 0 };

  constructor(
    private readonly file: string,
    opts: WalCheckpointerOptions = {},
  ) {
    this.every = Math.max(1, Math.floor(opts.every ?? 400));
  }

  /** After each commit that wrote `records` records: a pass starts once `every` are written, unless one is running. */
  committed(records: number): void {
    this.written += records;
    if (this.closed || this.written < this.every || this.running) return;
    this.written = 0;
    this.running = this.pass().finally(() => (this.running = null));
  }

  /** Resolves when no pass is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async pass(): Promise<void> {
    this.pool ??= new WorkerPool({ module: new URL(`./wal-checkpoint-worker${ext}`, import.meta.url), size: 1, queue: 1 });
    try {
      const [log, checkpointed] = await this.pool.run<[number, number]>('checkpoint', [this.file]);
      this.stats.passes += 1;
      this.stats.log = log;
      this.stats.checkpointed = checkpointed;
    } catch {
      // A failed pass (the file went away, the worker died) leaves the work to SQLite's own threshold.
      this.stats.failures += 1;
    }
  }

  /** Stops passes; the worker (and its connection) goes away. */
  close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    return pool ? pool.close() : Promise.resolve();
  }
}
