import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LeaseLevel, Store } from '../store/types';
import { seriesBase } from '../store/seed';
import { numberedSeries, type SeriesRegistry } from '../store/series';
import { leasePlan } from './leases';
import { renumberLocal } from './numbered';
import { CENTRAL_PUBLIC_URL_META, LOCAL_WS, publicKeyOf } from '../modules/certs/cert-keys';
import { CERT_KEY_SENT, certKeySent, sendCertKey, STANDALONE_WS, standaloneWorkspace } from './bench-cert-key';
import { bytesCapped, DEFAULT_BLOCK, describe, PULL_PAGE, PUSH_BATCH, SNAPSHOT_PAGE, SyncError, type Timed, type Transport } from './protocol';

import type { Enrolment, SyncBenchOptions, SyncStatus } from './bench-types';
export type { Enrolment, SyncBenchOptions, SyncStatus } from './bench-types';

/** Where benches before this version kept their enrolment (moved into the database on start). */
const ENROLMENT_FILE = 'sync-enrolment.json';
/** Meta key of the enrolment, written in the transaction that keeps its first number blocks. */
export const ENROLMENT_KEY = 'sync_enrolment';
const PUSH_CURSOR = 'sync_push_cursor';
const PULL_CURSOR = 'sync_pull_cursor';
const SNAPSHOT_STATE = 'sync_snapshot';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The bench's side: enrolment, push/pull cycles, number leases and the background loop. */
export class SyncBench {
  private enrolment: Enrolment | null = null;
  private loaded: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private failures = 0;
  private lastPush: number | null = null;
  private lastPull: number | null = null;
  private lastError: string | null = null;
  /** A code given at start while central was unreachable: the loop retries it. */
  private pendingEnrol: { central: string; code: string } | null = null;

  constructor(
    private readonly store: Store,
    private readonly opts: SyncBenchOptions,
  ) {
    store.replica.onWanted = () => this.kick();
  }

  private get series(): SeriesRegistry {
    return this.opts.series ?? numberedSeries;
  }

  /** Read the enrolment from the database (once; a legacy enrolment file moves into it). */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const raw = await this.store.meta(ENROLMENT_KEY);
      if (raw) this.enrolment = parseEnrolment(raw);
      const file = join(this.opts.dataDir, ENROLMENT_FILE);
      if (!existsSync(file)) return;
      if (!this.enrolment) {
        const legacy = parseEnrolment(readFileSync(file, 'utf8'));
        if (legacy) await this.store.setMeta(ENROLMENT_KEY, JSON.stringify(legacy));
        this.enrolment = legacy;
      }
      rmSync(file, { force: true });
    })();
    return this.loaded;
  }

  get enrolled(): boolean {
    return this.enrolment !== null;
  }

  get workspace(): string | null {
    return this.enrolment?.workspace ?? null;
  }

  private get schema(): number {
    return this.store.replica.schemaVersion();
  }

  private transport(): Transport {
    if (!this.enrolment) throw new SyncError(409, 'not_enrolled');
    return this.opts.transport(this.enrolment.central);
  }

  /** Ask central for a customer-portal link (central signs it and answers on its own public address). */
  async portalLink(key: string): Promise<{ url: string; link: string; expires: string }> {
    await this.load();
    const e = this.enrolment;
    const t = this.transport();
    if (!e || !t.portalLink) throw new SyncError(409, 'not_enrolled');
    const a = this.timed(await t.portalLink(e.token, key, this.schema));
    return { url: a.url, link: a.link, expires: a.expires };
  }

  private timed<T extends Timed>(answer: T): T {
    this.store.replica.adjustClock(answer.serverTime);
    return answer;
  }

  /**
   * Exchange a one-time code for a bench token, then bring the bench's local records into the
   * central workspace (stamps kept, so they merge by LWW and are pushed as ordinary changes).
   */
  async enrol(central: string, code: string, name = ''): Promise<Enrolment> {
    await this.load();
    const url = central.replace(/\/+$/, '');
    const localWs = await this.store.meta('bench_workspace');
    const series = localWs ? await this.store.replica.localSeries(localWs) : {};
    // The seeded levels of the local workspace (none once it is a central workspace already).
    const base = localWs ? await seriesBase(this.store, localWs) : null;
    const block = this.opts.blockSize ?? DEFAULT_BLOCK;
    // The public half of the certificate signing key; the private key never leaves the data folder.
    const pub = await publicKeyOf(this.opts.dataDir);
    const certKey = { ...pub, alias: localWs ? await standaloneWorkspace(this.store, localWs, localWs, pub.kid) : null };
    const body = { code, bench: this.store.node, name, series, block, certKey, ...(base ? { base } : {}) };
    const answer = this.timed(await this.opts.transport(url).enrol(body, this.schema));
    const enrolment: Enrolment = { central: url, token: answer.token, bench: answer.bench, workspace: answer.workspace };
    // Numbers central issued too move to the range it reserved, before anything joins the workspace.
    if (localWs && base && localWs !== answer.workspace && answer.renumber && Object.keys(answer.renumber).length > 0) {
      const offsets = answer.renumber;
      const n = await renumberLocal(this.store, localWs, offsets, series, base, this.series.all()).catch((err: unknown) => {
        // Nothing was rewritten (one transaction) and the bench stays unenrolled: a new code starts over.
        this.opts.log?.(`sync: enrolment not completed: ${describe(err)}`);
        throw new SyncError(409, 'enrol_interrupted', answer.serverTime);
      });
      this.opts.log?.(`sync: renumbered ${n} local records (${Object.keys(offsets).join(', ')})`);
    }
    // The token and the numbers of every series land together: the bench is never enrolled without numbers.
    const meta: Record<string, string> = { [ENROLMENT_KEY]: JSON.stringify(enrolment) };
    if (typeof answer.publicUrl === 'string') meta[CENTRAL_PUBLIC_URL_META] = answer.publicUrl;
    // Central published the key only if it knows the field (an older central answers without publicUrl).
    if (answer.publicUrl !== undefined) meta[CERT_KEY_SENT] = certKeySent(answer.workspace, certKey.kid, certKey.alias);
    if (this.enrolment?.workspace !== enrolment.workspace) Object.assign(meta, { [PULL_CURSOR]: '0', [PUSH_CURSOR]: '0', [SNAPSHOT_STATE]: '' });
    await this.store.replica.addBlocks(enrolment.workspace, answer.blocks ?? [], { meta });
    this.enrolment = enrolment;
    this.pendingEnrol = null;
    await this.bind();
    this.opts.log?.(`sync: enrolled as bench ${answer.bench} in workspace ${enrolment.workspace}`);
    return enrolment;
  }

  /**
   * Serve the enrolled workspace: move the local records into it (once; resumed after a crash
   * between saving the token and moving the records) and issue numbers from leased blocks.
   */
  async bind(): Promise<void> {
    await this.load();
    const ws = this.enrolment?.workspace;
    if (!ws) return;
    const localWs = await this.store.meta('bench_workspace');
    if (localWs !== ws || this.store.replica.leasedWorkspace() !== ws) {
      if (!(await this.store.workspace(ws))) await this.store.createWorkspace(ws, 'bench');
      await this.store.markSeeded(ws);
      // Certificates signed standalone keep naming that workspace: remember it for central's alias.
      if (localWs && LOCAL_WS.test(localWs) && !(await this.store.meta(STANDALONE_WS))) await this.store.setMeta(STANDALONE_WS, localWs);
      if (localWs && localWs !== ws) await this.store.replica.rekey(localWs, ws);
      await this.store.setMeta('bench_workspace', ws);
      await this.store.replica.setLeasedWorkspace(ws);
    }
    this.opts.onWorkspace?.(ws);
  }

  /** Enrol now if central answers, else keep the code and let the loop retry. */
  async enrolOrDefer(central: string, code: string): Promise<void> {
    await this.load();
    if (this.enrolled) return;
    try {
      await this.enrol(central, code);
    } catch (err) {
      if (err instanceof SyncError && err.status < 500 && err.status !== 0) throw err;
      this.lastError = describe(err);
      this.pendingEnrol = { central, code };
    }
  }

  /** Forget the enrolment (after central revoked the bench); local data stays. */
  async forget(): Promise<void> {
    await this.load();
    this.enrolment = null;
    await this.store.setMeta(ENROLMENT_KEY, '');
  }

  async status(): Promise<SyncStatus> {
    await this.load();
    const ws = this.enrolment?.workspace ?? null;
    return {
      enrolled: this.enrolled,
      central: this.enrolment?.central ?? this.pendingEnrol?.central ?? null,
      bench: this.store.node,
      workspace: ws,
      pending: ws ? await this.store.replica.pendingCount(ws, await this.cursor(PUSH_CURSOR)) : 0,
      lastPush: iso(this.lastPush),
      lastPull: iso(this.lastPull),
      lastError: this.lastError,
      leases: ws ? await this.store.replica.leaseLevels(ws) : [],
    };
  }

  private async cursor(key: string): Promise<number> {
    return Number((await this.store.meta(key)) ?? 0) || 0;
  }

  /** One push/pull/lease cycle; concurrent callers share the running one. */
  cycle(): Promise<void> {
    if (!this.running) {
      this.running = this.runCycle().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async runCycle(): Promise<void> {
    try {
      await this.load();
      if (!this.enrolment && this.pendingEnrol) await this.enrol(this.pendingEnrol.central, this.pendingEnrol.code);
      if (!this.enrolment) throw new SyncError(409, 'not_enrolled');
      await this.bind();
      // A refused push (a stamp still in central's future, say) must not keep the bench from pulling.
      const pushed = await this.pushAll().then(
        () => null,
        (err: unknown) => err,
      );
      await this.pullAll();
      await this.topUp();
      await this.sendCertKey();
      if (pushed) throw pushed;
      this.lastError = null;
      this.failures = 0;
      // Central answers again (a manual cycle): the loop leaves its backoff and follows at the normal pace.
      if (this.timer) this.schedule(this.opts.intervalMs ?? 5000);
    } catch (err) {
      this.lastError = describe(err);
      this.failures += 1;
      throw err;
    }
  }

  private async pushAll(): Promise<void> {
    const e = this.enrolment as Enrolment;
    for (;;) {
      const after = await this.cursor(PUSH_CURSOR);
      const changes = bytesCapped(await this.store.replica.localChanges(e.workspace, after, this.opts.pages?.push ?? PUSH_BATCH));
      if (changes.length === 0) break;
      const batch = `${e.bench}-${changes[0].seq}-${changes[changes.length - 1].seq}`;
      // Same range, same batch id: a retried batch gets central's first answer back.
      this.timed(await this.transport().push(e.token, { batch, changes }, this.schema));
      await this.store.setMeta(PUSH_CURSOR, String(changes[changes.length - 1].seq));
      this.lastPush = Date.now();
    }
    this.lastPush ??= Date.now();
  }

  private async pullAll(): Promise<void> {
    // Central may answer that the cursor lies below its compaction horizon: then a snapshot, once.
    for (let round = 0; round < 2; round += 1) {
      await this.loadSnapshot();
      if (!(await this.followChanges())) break;
      await this.store.setMeta(SNAPSHOT_STATE, JSON.stringify({ key: '', seq: -1 }));
    }
    this.lastPull = Date.now();
  }

  /** A new bench (or a snapshot cut short, or asked for by central): load the workspace page by page. */
  private async loadSnapshot(): Promise<void> {
    const e = this.enrolment as Enrolment;
    const snap = (await this.store.meta(SNAPSHOT_STATE)) ?? '';
    if ((await this.cursor(PULL_CURSOR)) !== 0 && !snap) return;
    let state = snap ? (JSON.parse(snap) as { key: string; seq: number }) : { key: '', seq: -1 };
    for (;;) {
      const page = this.timed(await this.transport().snapshot(e.token, state.key, this.opts.pages?.snapshot ?? SNAPSHOT_PAGE, this.schema));
      const seq = state.seq < 0 ? page.serverSeq : state.seq;
      const done = page.nextKey === null;
      state = { key: page.nextKey ?? '', seq };
      const meta: Record<string, string> = done ? { [SNAPSHOT_STATE]: '', [PULL_CURSOR]: String(seq) } : { [SNAPSHOT_STATE]: JSON.stringify(state) };
      await this.store.replica.applyRecords(e.workspace, page.records, { meta, inside: this.opts.beforeApplyCommit });
      if (done) break;
    }
  }

  /** Pull changes from the cursor on; true when central asks for a snapshot first. */
  private async followChanges(): Promise<boolean> {
    const e = this.enrolment as Enrolment;
    for (;;) {
      const after = await this.cursor(PULL_CURSOR);
      const page = this.timed(await this.transport().pull(e.token, after, this.opts.pages?.pull ?? PULL_PAGE, this.schema));
      if (page.resync) return true;
      if (page.next > after || page.changes.length > 0) {
        await this.store.replica.applyChanges(e.workspace, page.changes, {
          meta: { [PULL_CURSOR]: String(Math.max(after, page.next)) },
          inside: this.opts.beforeApplyCommit,
        });
      }
      if (!page.more) return false;
    }
  }

  /** Publish this bench's certificate key once per workspace and key (bench-cert-key.ts). */
  private async sendCertKey(): Promise<void> {
    await sendCertKey({ store: this.store, transport: this.transport(), enrolment: this.enrolment as Enrolment, dataDir: this.opts.dataDir, schema: this.schema, timed: (a) => this.timed(a) });
  }

  private async topUp(): Promise<void> {
    const e = this.enrolment as Enrolment;
    const size = this.opts.blockSize ?? DEFAULT_BLOCK;
    const levels = await this.store.replica.leaseLevels(e.workspace);
    const requests = leasePlan(levels, this.series, size, (this.opts.now ?? Date.now)());
    // Asked even with nothing to top up: the answer names every series of the workspace.
    const ans = this.timed(await this.transport().lease(e.token, { requests }, this.schema));
    await this.store.replica.addBlocks(e.workspace, ans.blocks);
    const known = new Set(levels.map((l) => l.series));
    const fresh = ans.series.filter((s) => !known.has(s));
    for (const s of fresh) await this.store.replica.wantSeries(e.workspace, s, null);
    if (fresh.length > 0) {
      // Blocks of the series central told us about, at once.
      const more = leasePlan(await this.store.replica.leaseLevels(e.workspace), this.series, size, (this.opts.now ?? Date.now)());
      if (more.length > 0) {
        const ans2 = this.timed(await this.transport().lease(e.token, { requests: more }, this.schema));
        await this.store.replica.addBlocks(e.workspace, ans2.blocks);
      }
    }
  }

  // ---- background loop ----

  /** Start the loop: a cycle now, then every interval, backing off while central is unreachable. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Run a cycle soon (a request needed a series without a block). */
  kick(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.enrolment && !this.pendingEnrol) return this.schedule(this.opts.intervalMs ?? 5000);
      this.cycle().then(
        () => this.schedule(this.opts.intervalMs ?? 5000),
        (err: unknown) => {
          const wait = Math.min(this.opts.maxBackoffMs ?? 60_000, 1000 * 2 ** Math.min(this.failures, 6));
          this.opts.log?.(`sync: ${describe(err)}; retrying in ${Math.round(wait / 1000)} s`);
          this.schedule(wait);
        },
      );
    }, ms);
    this.timer.unref();
  }

  /** Stop the loop and wait for a running cycle to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running.catch(() => undefined);
  }
}

function parseEnrolment(raw: string): Enrolment | null {
  try {
    const e = JSON.parse(raw) as Partial<Enrolment> | null;
    return e && typeof e.token === 'string' && typeof e.workspace === 'string' && typeof e.central === 'string' && typeof e.bench === 'string'
      ? { central: e.central, token: e.token, bench: e.bench, workspace: e.workspace }
      : null;
  } catch {
    return null;
  }
}
