import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../../core/errors';
import { ensureWorkspace, readSeed, type SeedSpec } from '../../store/seed';
import { declareCap } from '../../store/caps';
import { SqliteStore } from '../../store/sqlite-store';
import type { Doc, Store } from '../../store/types';
import { openTestStore, testStoreKind, type TestStore } from '../../testing/stores.testkit';
import { SyncBench } from '../bench';
import { SyncCentral } from '../central';
import { planRenumbering, renumberedKey, type SeriesShift } from '../numbered';
import { HostileBench } from './hostile.testkit';
import { compare, dumpReplica, dumpStore, Oracle } from './oracle.testkit';
import { BLOCK, LOG_CAP, randomOps, simSeries, type Op } from './ops.testkit';
import { Rng } from './rng.testkit';
import type { SimOptions, SimReport } from './report.testkit';
import { SimTransport, type FaultCounts, type NetState } from './sim-transport.testkit';

const MIN = 60_000;
/** Virtual start: 2026-11-22 in Japan. */
const T0 = Date.UTC(2026, 10, 22, 1, 0, 0);
const SEEDS: SeedSpec[] = [
  { file: 'devices.json', coll: 'devices', key: 'imei' },
  { file: 'tickets.json', coll: 'tickets' },
];

interface Bench {
  name: string;
  dir: string;
  file: string;
  store: SqliteStore;
  sync: SyncBench;
  transport: SimTransport;
  skew: number;
  online: boolean;
  crashNext: boolean;
  /** Highest change seq of this file already given to the oracle. */
  fed: number;
  localWs: string;
  /** Writes to the local workspace, held back until enrolment tells which numbers moved. */
  held: { coll: string; id: string; hlc: string; fields: Doc }[];
  /** Numbers issued before enrolment (checked for duplicates once renumbered). */
  heldNumbers: [string, number][];
}

/** 1 central + N benches in one process, each its own SQLite file, driven by one seeded RNG. */
class World {
  readonly rng: Rng;
  private readonly compactRng: Rng;
  /** Compactions of central's change log, and how many of them passed a bench's cursor (it then loads a snapshot). */
  compactions = { runs: 0, pastABench: 0 };
  now: number;
  readonly series = simSeries();
  readonly net: NetState = { centralUp: true, faults: true };
  readonly oracle = new Oracle();
  readonly faults: FaultCounts = { dropped: 0, lostResponse: 0, duplicated: 0, replayed: 0, futureRefused: 0 };
  readonly problems: string[] = [];
  private readonly root: string;
  /** Central runs on the store of the test run (SQLite, or PostgreSQL in the `pg` project). */
  private centralStore!: Store;
  private centralHandle!: TestStore;
  private central!: SyncCentral;
  private centralFed = 0;
  private ws = '';
  readonly benches: Bench[] = [];
  private hostile: HostileBench | null = null;
  private readonly issued = new Map<string, Set<number>>();
  private readonly imeis: string[] = [];
  /** Reserve numbers issued by bench processes that crashed since. */
  private overflowBefore = 0;
  private readonly offline: Record<string, number> = {};
  stats = { ops: 0, committed: 0, refused503: 0, crashes: 0, cycles: 0, renumbered: 0 };

  constructor(
    readonly seed: number,
    private readonly nBenches: number,
    private readonly opts: SimOptions = {},
  ) {
    this.rng = new Rng(seed);
    // Its own stream: compacting leaves every other random choice of a seed as it was.
    this.compactRng = new Rng(seed ^ 0xc0ac7);
    this.now = opts.start ?? T0;
    this.root = mkdtempSync(join(tmpdir(), `kitting-sim-${seed}-`));
    const seeded = readSeed('devices.json').slice(0, 12).map((d) => String(d.imei));
    for (let i = 0; i < 24; i += 1) this.imeis.push(`35${String(1000 + i).padStart(13, '0')}`);
    this.imeis.push(...seeded);
    this.oracle.cap('syncLog', LOG_CAP);
    declareCap('syncLog', LOG_CAP);
  }

  async setup(): Promise<void> {
    const centralDir = join(this.root, 'central');
    mkdirSync(centralDir);
    this.centralHandle = await openTestStore(testStoreKind(), centralDir, { node: 'central', wall: () => this.now });
    this.centralStore = this.centralHandle.store;
    this.central = new SyncCentral(this.centralStore, this.series);
    this.ws = 'w-sim';
    await ensureWorkspace(this.centralStore, this.ws, 'anonymous', SEEDS, this.series);
    await this.feedCentral();
    for (let i = 0; i < this.nBenches; i += 1) {
      const name = `bench${i + 1}`;
      const dir = join(this.root, name);
      mkdirSync(dir);
      const skew = this.rng.int(-10 * MIN, 10 * MIN);
      const b = { name, dir, file: join(dir, 'kitting.db'), skew, online: true, crashNext: false, fed: 0, localWs: `b-${name}`, held: [] as Bench['held'], heldNumbers: [] as Bench['heldNumbers'] } as Bench;
      await this.open(b);
      await ensureWorkspace(b.store, b.localWs, 'bench', SEEDS, this.series);
      await b.store.setMeta('bench_workspace', b.localWs);
      this.benches.push(b);
      this.feed(b);
    }
    if (this.opts.hostile) {
      this.hostile = new HostileBench(
        () => this.central,
        this.centralStore,
        new Rng(this.seed ^ 0xbad),
        this.ws,
        () => this.now,
        (coll, id, hlc, fields) => this.oracle.add(coll, id, hlc, fields),
        (series, n) => this.noteIssued(series, n),
        this.problems,
      );
      await this.hostile.enrol();
    }
  }

  private async open(b: Bench): Promise<void> {
    b.store = new SqliteStore({ file: b.file, node: b.name, wall: () => this.now + b.skew });
    b.transport ??= new SimTransport(() => this.central, this.rng, this.net, () => b.online, this.faults);
    b.sync = new SyncBench(b.store, {
      dataDir: b.dir,
      transport: () => b.transport,
      blockSize: BLOCK,
      series: this.series,
      now: () => this.now,
      pages: { push: 25, pull: 40, snapshot: 60 },
      beforeApplyCommit: () => {
        if (this.net.faults && this.rng.chance(0.03)) {
          b.crashNext = true;
          throw new Error('simulated crash mid-apply');
        }
      },
    });
    await b.sync.load();
  }

  /** Kill the bench process mid-way (no clean close) and start it again on the same file. */
  private async crash(b: Bench): Promise<void> {
    this.overflowBefore += b.store.replica.overflowIssued;
    b.store.db.close();
    b.crashNext = false;
    this.stats.crashes += 1;
    await this.open(b);
  }

  private wsOf(b: Bench): string {
    return b.sync.workspace ?? b.localWs;
  }

  /**
   * Give the oracle every write this replica's file committed since last time. Writes to the local
   * workspace wait for enrolment: a record renumbered then is expected under its new key only.
   */
  private feed(b: Bench): void {
    b.fed = this.feedFrom(b.store, b.fed, (ws) => ws === this.ws, (r) => {
      if (r.ws === b.localWs) b.held.push({ coll: r.coll, id: r.id, hlc: r.hlc, fields: JSON.parse(r.fields) as Doc });
    });
    if (b.sync.enrolled && (b.held.length > 0 || b.heldNumbers.length > 0)) this.release(b);
  }

  /** The bench enrolled: hand its held writes to the oracle, leaving out the keys it renumbered. */
  private release(b: Bench): void {
    const raw = b.store.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(renumberedKey(b.localWs))?.value;
    const shifts = raw ? (JSON.parse(raw) as Record<string, SeriesShift>) : {};
    const moved = new Set(
      planRenumbering(
        b.held.map((c) => ({ coll: c.coll, id: c.id, data: {}, stamps: {}, deleted: false })),
        shifts,
        this.series.all(),
      )
        .filter((w) => w.to !== w.from)
        .map((w) => `${w.coll}\u0001${w.from}`),
    );
    for (const c of b.held) if (!moved.has(`${c.coll}\u0001${c.id}`)) this.oracle.add(c.coll, c.id, c.hlc, c.fields);
    for (const [series, n] of b.heldNumbers) {
      const sh = shifts[series];
      const moves = sh !== undefined && n > sh.base && n <= sh.level;
      if (moves) this.stats.renumbered += 1;
      this.noteIssued(series, moves ? n + sh.offset : n);
    }
    b.held = [];
    b.heldNumbers = [];
  }

  private noteIssued(series: string, n: number): void {
    let set = this.issued.get(series);
    if (!set) this.issued.set(series, (set = new Set()));
    if (set.has(n)) this.problems.push(`number ${n} of series ${series} issued twice`);
    set.add(n);
  }

  private async feedCentral(): Promise<void> {
    for (const c of await this.centralStore.replica.localChanges(this.ws, this.centralFed, 1_000_000)) {
      this.oracle.add(c.coll, c.id, c.hlc, c.fields);
      this.centralFed = c.seq;
    }
  }

  private feedFrom(
    store: SqliteStore,
    after: number,
    mine: (ws: string) => boolean,
    other: (r: { ws: string; coll: string; id: string; hlc: string; fields: string }) => void = () => undefined,
  ): number {
    const rows = store.db
      .prepare<[number], { seq: number; ws: string; coll: string; id: string; hlc: string; fields: string }>(
        "SELECT seq, ws, coll, id, hlc, fields FROM changes WHERE seq > ? AND origin = '' ORDER BY seq",
      )
      .all(after);
    let last = after;
    for (const r of rows) {
      if (mine(r.ws)) this.oracle.add(r.coll, r.id, r.hlc, JSON.parse(r.fields) as Doc);
      else other(r);
      last = r.seq;
    }
    return last;
  }

  private ops(enrolled: boolean): Op[] {
    return randomOps({ rng: this.rng, now: this.now, imeis: this.imeis, numbersBeforeEnrol: this.opts.numbersBeforeEnrol === true }, enrolled);
  }

  private async operate(store: Store, ws: string, enrolled: boolean, held?: [string, number][], bench?: string): Promise<void> {
    const op = this.rng.pick(this.ops(enrolled));
    const issued: [string, number][] = [];
    this.stats.ops += 1;
    try {
      await store.transact(ws, (tx) => op(tx, issued));
      this.stats.committed += 1;
      if (held) held.push(...issued);
      else for (const [series, n] of issued) this.noteIssued(series, n);
      if (bench && enrolled && !this.net.centralUp) for (const [series] of issued) this.offline[series] = (this.offline[series] ?? 0) + 1;
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'unavailable' && err.error === 'series_exhausted' && typeof err.extra.series === 'string') {
        this.stats.refused503 += 1;
        // Allowed only for a bench whose block and reserve of the series are both spent.
        const series = err.extra.series;
        const level = (await store.replica.leaseLevels(ws)).find((l) => l.series === series);
        if (level && level.remaining + level.reserve > 0) this.problems.push(`${bench ?? 'central'}: 503 for ${series} with ${level.remaining} + ${level.reserve} numbers left`);
        if (this.series.countersAt(this.now).some((c) => c.counter === series) && !level) this.problems.push(`${bench ?? 'central'}: no block of ${series} at all`);
        return;
      }
      throw err;
    }
  }

  private async cycle(b: Bench): Promise<boolean> {
    this.stats.cycles += 1;
    try {
      if (!b.sync.enrolled) {
        const { code } = await this.central.createCode(this.ws);
        await b.sync.enrol('sim://central', code);
      }
      await b.sync.cycle();
      return true;
    } catch {
      if (b.crashNext) await this.crash(b);
      return false;
    } finally {
      this.feed(b);
    }
  }

  /** One random step: time passes, links flap, someone writes, someone syncs. */
  async step(): Promise<void> {
    const rng = this.rng;
    this.now += rng.int(0, 4000);
    if (this.net.centralUp ? rng.chance(0.004) : rng.chance(0.03)) this.net.centralUp = !this.net.centralUp;
    const out = this.opts.outage;
    if (out && this.now >= out.from && this.now < out.to) this.net.centralUp = false;
    for (const b of this.benches) if (b.online ? rng.chance(0.004) : rng.chance(0.01)) b.online = !b.online;

    if (rng.chance(0.12)) {
      await this.operate(this.centralStore, this.ws, this.opts.numbersBeforeEnrol === true);
      await this.feedCentral();
    } else {
      const b = rng.pick(this.benches);
      await this.operate(b.store, this.wsOf(b), b.sync.enrolled, b.sync.enrolled ? undefined : b.heldNumbers, b.name);
      this.feed(b);
    }
    if (this.compactRng.chance(0.01)) await this.compact();
    if (this.hostile && this.net.centralUp && rng.chance(0.03)) {
      await this.feedCentral();
      await this.hostile.act(this.imeis);
    }
    if (rng.chance(0.25)) {
      const b = rng.pick(this.benches);
      // Unenrolled benches wait a while: they work offline on their local workspace first.
      if (b.sync.enrolled || rng.chance(0.05)) await this.cycle(b);
    }
  }

  /**
   * Central compacts its change log: either behind every bench's cursor, or (no bench counting as active)
   * right up to the retention window, so benches behind it must load a snapshot.
   */
  private async compact(): Promise<void> {
    const r = this.compactRng;
    const retentionMs = r.pick([0, 5 * MIN, 30 * MIN]);
    const everyoneAway = r.chance(0.5);
    // Central's change rows are in the oracle already; the benches' rows are fed from their own files.
    await this.feedCentral();
    const cursors = await Promise.all(this.benches.map(async (b) => Number((await b.store.meta('sync_pull_cursor')) ?? 0)));
    // A negative activity window: no bench's last call is recent enough to hold the horizon back.
    const reports = await this.central.compact({ now: this.now, retentionMs, activeMs: everyoneAway ? -1e15 : 365 * 24 * 60 * MIN });
    const report = reports.find((x) => x.ws === this.ws);
    this.compactions.runs += 1;
    if (report && cursors.some((c) => c > 0 && c < report.through)) this.compactions.pastABench += 1;
  }

  /** Faults off, everyone online, clocks past every stamp: sync until nothing moves. */
  async quiesce(): Promise<void> {
    this.net.faults = false;
    this.net.centralUp = true;
    for (const b of this.benches) b.online = true;
    this.now += 15 * MIN;
    let stable = 0;
    let lastSeq = -1;
    for (let round = 0; round < 40 && stable < 2; round += 1) {
      for (const b of this.benches) {
        if (!(await this.cycle(b))) this.problems.push(`${b.name}: cycle failed during quiescence: ${(await b.sync.status()).lastError}`);
      }
      const seq = await this.centralStore.replica.lastSeq(this.ws);
      let pending = 0;
      for (const b of this.benches) pending += (await b.sync.status()).pending;
      stable = seq === lastSeq && pending === 0 ? stable + 1 : 0;
      lastSeq = seq;
    }
    if (stable < 2) this.problems.push('did not quiesce in 40 rounds');
  }

  async check(): Promise<void> {
    const central = await dumpStore(this.centralStore, this.ws);
    if (this.hostile) HostileBench.checkStamps(await this.centralRecords(), this.problems);
    const expected = this.oracle.expected();
    compare('central vs oracle', central, expected, this.problems);
    for (const b of this.benches) {
      compare(`${b.name} vs central`, dumpReplica(b.store.db, this.ws), central, this.problems);
      const leftover = b.store.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM records WHERE ws = ?').get(b.localWs)?.n ?? 0;
      if (leftover > 0) this.problems.push(`${b.name}: ${leftover} records left in the local workspace`);
    }
    const seededImeis = new Set(readSeed('devices.json').map((d) => String(d.imei)));
    const devices = central.filter((l) => l.startsWith('devices\u0001')).length;
    if (devices > seededImeis.size + this.imeis.length) this.problems.push(`demo devices duplicated: ${devices}`);
  }

  private async centralRecords(): Promise<{ stamps: Record<string, string> }[]> {
    const out: { stamps: Record<string, string> }[] = [];
    let key = '';
    for (;;) {
      const page = await this.centralStore.replica.snapshotPage(this.ws, key, 2000);
      out.push(...page.records);
      if (!page.nextKey) return out;
      key = page.nextKey;
    }
  }

  report(): SimReport {
    const overflowIssued = this.overflowBefore + this.benches.reduce((n, b) => n + b.store.replica.overflowIssued, 0);
    const counters = Object.fromEntries([...this.issued].map(([c, set]) => [c, set.size]));
    return { seed: this.seed, ...this.stats, compactions: { ...this.compactions }, overflowIssued, counters, offline: { ...this.offline }, faults: { ...this.faults }, ...(this.hostile ? { hostile: { ...this.hostile.counts } } : {}), problems: [...this.problems] };
  }

  async close(): Promise<void> {
    for (const b of this.benches) if (b.store.db.open) b.store.close();
    await this.centralHandle?.dispose();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Run one seeded simulation to quiescence and check it. */
export async function simulate(seed: number, steps: number, opts: SimOptions = {}): Promise<SimReport> {
  const rng = new Rng(seed ^ 0x5eed);
  const world = new World(seed, rng.int(3, 6), opts);
  try {
    await world.setup();
    for (let i = 0; i < steps; i += 1) await world.step();
    await world.quiesce();
    await world.check();
    return world.report();
  } finally {
    await world.close();
  }
}
