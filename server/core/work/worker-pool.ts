import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { unavailable } from '../errors';

/**
 * Heavy work (PDF rendering) off the main thread: a small pool of worker threads, at most `size` tasks
 * running at once, at most `queue` more waiting (503 busy beyond it), so no request ever holds the event
 * loop and a burst of heavy requests cannot grow memory without bound. A worker module answers
 * `{ id, task, args }` messages with `{ id, ok: true, value }` or `{ id, ok: false, error }`
 * (see serveTasks). A worker that dies fails its task and is replaced on the next one.
 * serveTasks reads `workerData.module` nowhere: the module itself is the worker.
 */
export interface PoolOptions {
  /** The worker module (a .ts module runs with the tsx loader, as the server itself does). */
  module: URL;
  /** Tasks running at once (default: the cores less one, at least 1, at most 4). */
  size?: number;
  /** Tasks waiting beyond those (default 32). */
  queue?: number;
}

interface Job {
  task: string;
  args: unknown[];
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  busy: Job | null;
  id: number;
}

const TS_BOOT = `const { workerData } = require('node:worker_threads');
import('tsx/esm/api').then((tsx) => { tsx.register(); return import(workerData.module); }).catch((err) => { setImmediate(() => { throw err; }); });`;

const defaultPoolSize = () => Math.max(1, Math.min(4, availableParallelism() - 1));

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private readonly size: number;
  private readonly queueMax: number;
  private closed = false;
  private seq = 0;

  constructor(private readonly opts: PoolOptions) {
    this.size = Math.max(1, opts.size ?? defaultPoolSize());
    this.queueMax = Math.max(0, opts.queue ?? 32);
  }

  /** Tasks running and waiting now. */
  load(): { running: number; waiting: number } {
    return { running: this.slots.filter((s) => s.busy).length, waiting: this.waiting.length };
  }

  run<T>(task: string, args: unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(new Error('worker pool closed'));
    return new Promise<T>((resolve, reject) => {
      const job: Job = { task, args, resolve: resolve as (v: unknown) => void, reject };
      const idle = this.idleSlot();
      if (idle) return this.start(idle, job);
      if (this.waiting.length >= this.queueMax) {
        reject(unavailable('busy', { message: '混み合っています。しばらくしてから再度お試しください' }));
        return;
      }
      this.waiting.push(job);
    });
  }

  private idleSlot(): Slot | null {
    const free = this.slots.find((s) => !s.busy);
    if (free) return free;
    if (this.slots.length < this.size) {
      const slot = this.spawn();
      this.slots.push(slot);
      return slot;
    }
    return null;
  }

  private spawn(): Slot {
    const ts = this.opts.module.pathname.endsWith('.ts');
    // A TypeScript module (the server runs from source with tsx): the worker registers tsx's loader first.
    const worker = ts
      ? new Worker(TS_BOOT, { eval: true, workerData: { module: this.opts.module.href } })
      : new Worker(this.opts.module);
    worker.unref();
    const slot: Slot = { worker, busy: null, id: 0 };
    worker.on('message', (m: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const job = slot.busy;
      if (!job || m.id !== slot.id) return;
      slot.busy = null;
      if (m.ok) job.resolve(m.value);
      else job.reject(new Error(m.error ?? 'worker task failed'));
      this.next(slot);
    });
    const fail = (err: unknown) => {
      const job = slot.busy;
      slot.busy = null;
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      job?.reject(err instanceof Error ? err : new Error(String(err)));
      // A replacement takes the next waiting task.
      const nextJob = this.waiting.shift();
      if (nextJob && !this.closed) {
        const s = this.idleSlot();
        if (s) this.start(s, nextJob);
        else this.waiting.unshift(nextJob);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (slot.busy || this.slots.includes(slot)) fail(new Error(`worker exited (${code})`));
    });
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.busy = job;
    slot.id = ++this.seq;
    slot.worker.ref();
    slot.worker.postMessage({ id: slot.id, task: job.task, args: job.args });
  }

  private next(slot: Slot): void {
    const job = this.waiting.shift();
    if (job) this.start(slot, job);
    else slot.worker.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.waiting.splice(0)) j.reject(new Error('worker pool closed'));
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
