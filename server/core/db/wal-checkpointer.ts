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
 * nearly everything already copied and only finishes the tail. One worker thread serves every database of the
 * process (passes of two databases wait their turn); it starts with the first pass, so a process whose
 * databases are written a few hundred times (a test) never starts one, and it never keeps the process alive.
 */
export interface WalCheckpointerOptions {
  /** Records written between two passes (default 400). */
  every?: number;
}

const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

let shared: WorkerPool | null = null;
const checkpointPool = () => (shared ??= new WorkerPool({ module: new URL(`./wal-checkpoint-worker${ext}`, import.meta.url), size: 1, queue: 64 }));

export class WalCheckpointer {
  private readonly every: number;
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
    try {
      const [log, checkpointed] = await checkpointPool().run<[number, number]>('checkpoint', [this.file]);
      this.stats.passes += 1;
      this.stats.log = log;
      this.stats.checkpointed = checkpointed;
    } catch {
      // A failed pass (the file went away, the worker died) leaves the work to SQLite's own threshold.
      this.stats.failures += 1;
    }
  }

  /** Stops passes; resolves once a pass still running has finished (it holds no connection after that). */
  close(): Promise<void> {
    this.closed = true;
    return this.idle();
  }
}
