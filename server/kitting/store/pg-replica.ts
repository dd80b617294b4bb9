/** The PostgreSQL implementation of the replication primitives (central's side of the sync protocol). */
import type pg from 'pg';
import type { HlcClock } from '../../../shared/hlc';
import { seriesExhausted } from './series';
import { declaredCap } from './caps';
import type { CompactionPolicy, CompactionReport, LogSize } from './compaction';
import { pgCompactedThrough, pgCompactLog, pgLogSize } from './pg-compaction';
import { loadMigrations } from './migrate';
import { changesOfRecord, mergeChange, mergeRecord, type RowState } from './merge';
import { BATCH_MEMORY_MS, capBytes, toBench, toChange, type BenchDbRow, type ChangeRow } from './pg-replica-rows';
import { PlannerStats } from './pg-stats';
import { inWorkspace, keyOf, SEQ_UPSERT, type ChangeInsert, type DbRecord, type HeadQuery, type WsWriter } from './pg-txn';
import type { ApplyOptions, BenchRow, LeaseBlock, LeaseLevel, LeaseRequest, PushOutcome, RenumberJob, ReplicaStore, WireChange, WireRecord } from './types';

let model: number | null = null;
const modelVersion = (): number => (model ??= Math.max(0, ...loadMigrations().map((m) => m.version)));

/**
 * PostgreSQL is central's store only (benches keep their embedded SQLite replica, and the configuration refuses
 * KITTING_DATABASE_URL outside central mode): a bench-only primitive called on it is refused with this error.
 */
export class CentralOnlyStoreError extends Error {
  constructor(readonly method: string) {
    super(`${method}: a bench-only replica method; the PostgreSQL store serves central only (benches keep their SQLite replica)`);
    this.name = 'CentralOnlyStoreError';
  }
}

const benchOnly = (what: string) => new CentralOnlyStoreError(what);

export class PgReplica implements ReplicaStore {
  onWanted: ((series: string) => void) | null = null;
  /** Version of the PostgreSQL schema (its own numbered migrations). */
  pgSchema = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: HlcClock,
    private readonly stats: PlannerStats = new PlannerStats(pool),
  ) {}

  /** After a restart (or with a wall clock set back) new stamps still sort after every stored one. */
  async resumeClock(): Promise<void> {
    const r = await this.pool.query<{ h: string | null }>('SELECT MAX(hlc) AS h FROM records');
    if (r.rows[0]?.h) this.clock.observe(r.rows[0].h);
  }

  /**
   * The data model version the sync protocol compares with a bench's (426 when the bench is newer): the
   * newest migration of this release (one numbering on both stores, so a bench of this release has it too).
   */
  schemaVersion(): number {
    return modelVersion();
  }

  now(): number {
    return this.clock.now();
  }

  adjustClock(serverTime: number): void {
    if (Number.isFinite(serverTime)) this.clock.offsetMs = serverTime - (this.clock.now() - this.clock.offsetMs);
  }

  // ---- reads ----

  async lastSeq(ws: string): Promise<number> {
    const r = await this.pool.query<{ seq: number }>('SELECT seq FROM change_seq WHERE ws = $1', [ws]);
    return r.rows[0]?.seq ?? 0;
  }

  async localChanges(ws: string, afterSeq: number, limit: number): Promise<WireChange[]> {
    const r = await this.pool.query<ChangeRow>(
      "SELECT seq, coll, id, hlc, fields FROM changes WHERE ws = $1 AND seq > $2 AND origin = '' ORDER BY seq LIMIT $3",
      [ws, afterSeq, limit],
    );
    return r.rows.map(toChange);
  }

  async pendingCount(ws: string, afterSeq: number): Promise<number> {
    const r = await this.pool.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM changes WHERE ws = $1 AND seq > $2 AND origin = ''", [ws, afterSeq]);
    return r.rows[0]?.n ?? 0;
  }

  async changesSince(ws: string, afterSeq: number, limit: number, excludeOrigin: string): Promise<WireChange[]> {
    const r = await this.pool.query<ChangeRow & { size: number }>(
      'SELECT seq, coll, id, hlc, fields, octet_length(fields::text) AS size FROM changes WHERE ws = $1 AND seq > $2 AND origin <> $3 ORDER BY seq LIMIT $4',
      [ws, afterSeq, excludeOrigin, limit],
    );
    return capBytes(r.rows, (x) => x.size).map(toChange);
  }

  async snapshotPage(ws: string, afterKey: string, limit: number): Promise<{ records: WireRecord[]; nextKey: string | null }> {
    const [coll, id] = afterKey ? (JSON.parse(afterKey) as [string, string]) : ['', ''];
    const r = await this.pool.query<DbRecord & { size: number }>(
      `SELECT coll, id, data, stamps, deleted, octet_length(data::text) + octet_length(stamps::text) AS size
         FROM records WHERE ws = $1 AND (coll, id) > ($2, $3) ORDER BY coll, id LIMIT $4`,
      [ws, coll, id, limit],
    );
    const rows = capBytes(r.rows, (x) => x.size);
    const records = rows.map((x) => ({ coll: x.coll, id: x.id, data: x.data, stamps: x.stamps, deleted: x.deleted }));
    const last = rows[rows.length - 1];
    const cut = rows.length < r.rows.length || r.rows.length === limit;
    return { records, nextKey: cut && last ? JSON.stringify([last.coll, last.id]) : null };
  }

  async localSeries(ws: string): Promise<Record<string, number>> {
    const r = await this.pool.query<{ name: string; next: number }>('SELECT name, next FROM series WHERE ws = $1', [ws]);
    return Object.fromEntries(r.rows.map((x) => [x.name, x.next]));
  }

  async seriesNames(ws: string): Promise<string[]> {
    return Object.keys(await this.localSeries(ws));
  }

  // ---- merging ----

  /** Merge changes in order into their records; logs the winning fields under `origin` unless it is null. */
  private async mergeAll(w: WsWriter, changes: WireChange[], origin: string | null): Promise<number> {
    const state = await w.rows(changes);
    const touched = new Map<string, { coll: string; id: string; row: RowState }>();
    const logged: ChangeInsert[] = [];
    let applied = 0;
    let max = '';
    for (const c of changes) {
      const key = keyOf(c.coll, c.id);
      const merged = mergeChange(state.get(key) ?? null, c);
      if (c.hlc > max) max = c.hlc;
      if (!merged) continue;
      applied += 1;
      state.set(key, merged.row);
      touched.set(key, { coll: c.coll, id: c.id, row: merged.row });
      if (origin !== null) logged.push({ coll: c.coll, id: c.id, hlc: c.hlc, fields: merged.won, origin });
    }
    await w.write([...touched.values()], logged);
    // counted once the rows are visible: an ANALYZE started before the commit would find none of them
    w.committed.push(() => this.stats.wrote(touched.size));
    await this.trimTouched(w.client, w.ws, new Set(changes.map((c) => c.coll)));
    if (max) this.clock.observe(max);
    return applied;
  }

  private async finish(client: pg.PoolClient, opts: ApplyOptions | undefined): Promise<void> {
    for (const [k, v] of Object.entries(opts?.meta ?? {})) {
      await client.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [k, v]);
    }
    opts?.inside?.();
  }

  applyChanges(ws: string, changes: WireChange[], opts?: ApplyOptions): Promise<number> {
    return inWorkspace(this.pool, ws, async (w) => {
      const applied = await this.mergeAll(w, changes, null);
      await this.finish(w.client, opts);
      return applied;
    });
  }

  applyRecords(ws: string, records: WireRecord[], opts?: ApplyOptions): Promise<number> {
    return inWorkspace(this.pool, ws, async (w) => {
      const state = await w.rows(records);
      const touched = new Map<string, { coll: string; id: string; row: RowState }>();
      let max = '';
      for (const r of records) {
        for (const s of Object.values(r.stamps)) if (s > max) max = s;
        const key = keyOf(r.coll, r.id);
        const merged = mergeRecord(state.get(key) ?? null, r);
        if (!merged) continue;
        state.set(key, merged);
        touched.set(key, { coll: r.coll, id: r.id, row: merged });
      }
      await w.upsert([...touched.values()]);
      // counted once the rows are visible: an ANALYZE started before the commit would find none of them
      w.committed.push(() => this.stats.wrote(touched.size));
      await this.trimTouched(w.client, ws, new Set(records.map((r) => r.coll)));
      await this.finish(w.client, opts);
      if (max) this.clock.observe(max);
      return touched.size;
    });
  }

  rekey(from: string, to: string): Promise<number> {
    return inWorkspace(this.pool, to, async (w) => {
      const rows = (await w.client.query<DbRecord>('SELECT coll, id, data, stamps, deleted, hlc FROM records WHERE ws = $1 ORDER BY ord', [from])).rows;
      const changes: WireChange[] = [];
      for (const r of rows) for (const g of changesOfRecord(r)) changes.push({ seq: 0, coll: r.coll, id: r.id, hlc: g.hlc, fields: g.fields });
      await this.mergeAll(w, changes, '');
      await w.client.query('DELETE FROM records WHERE ws = $1', [from]);
      return rows.length;
    });
  }

  renumber(_ws: string, _job: RenumberJob): Promise<number> {
    return Promise.reject(benchOnly('renumber'));
  }

  // ---- capped collections ----

  private async trimTouched(client: pg.PoolClient, ws: string, colls: Set<string>): Promise<void> {
    if (colls.size === 0) return;
    const stored = new Map(
      (await client.query<{ coll: string; keep: number }>('SELECT coll, keep FROM local_caps WHERE coll = ANY($1)', [[...colls]])).rows.map((r) => [r.coll, r.keep]),
    );
    for (const coll of colls) {
      const keep = stored.get(coll) ?? declaredCap(coll);
      if (keep !== undefined) await this.trim(client, ws, coll, keep);
    }
  }

  private async trim(client: pg.PoolClient, ws: string, coll: string, keep: number): Promise<number> {
    const r = await client.query(
      `DELETE FROM records WHERE ws = $1 AND coll = $2 AND id IN (
         SELECT id FROM records WHERE ws = $1 AND coll = $2 ORDER BY hlc DESC, id DESC OFFSET $3)`,
      [ws, coll, keep],
    );
    return r.rowCount ?? 0;
  }

  /** Local trim of a capped collection inside a transaction; remembers the cap for records arriving later. */
  async trimNow(client: pg.PoolClient, ws: string, coll: string, keep: number): Promise<number> {
    await client.query('INSERT INTO local_caps (coll, keep) VALUES ($1, $2) ON CONFLICT (coll) DO UPDATE SET keep = excluded.keep', [coll, keep]);
    return this.trim(client, ws, coll, keep);
  }

  // ---- bench-only: leased number blocks (central holds none: refused, or an empty answer for status reads) ----

  leasedWorkspace(): string | null {
    return null;
  }

  async setLeasedWorkspace(ws: string | null): Promise<void> {
    if (ws !== null) throw benchOnly('setLeasedWorkspace');
  }

  async addBlocks(_ws: string, _blocks: LeaseBlock[]): Promise<void> {
    throw benchOnly('addBlocks');
  }

  async leaseLevels(_ws: string): Promise<LeaseLevel[]> {
    return [];
  }

  async wantSeries(_ws: string, _series: string, _start: number | null): Promise<void> {
    throw benchOnly('wantSeries');
  }

  // ---- central ----

  pushBatch(ws: string, bench: string, batch: string, changes: WireChange[], opts?: ApplyOptions): Promise<PushOutcome> {
    // First round trip (with BEGIN and the workspace's lock): an earlier answer of this batch, the bench's
    // acked seq and the workspace's last server_seq. Pushes of a workspace hold its lock, so acked is stable.
    const head: HeadQuery = (lit) =>
      `SELECT (SELECT answer FROM sync_batches WHERE ws = ${lit(ws)} AND bench = ${lit(bench)} AND batch = ${lit(batch)}) AS answer,
              (SELECT acked FROM sync_benches WHERE ws = ${lit(ws)} AND bench = ${lit(bench)}) AS acked,
              (SELECT seq FROM change_seq WHERE ws = ${lit(ws)}) AS seq`;
    return inWorkspace(
      this.pool,
      ws,
      async (w) => {
        const c = w.client;
        const known = w.head as { answer: PushOutcome | null; acked: number | null; seq: number | null } | undefined;
        if (known?.answer) return { ...known.answer, duplicate: true };
        let acked = known?.acked ?? 0;
        const fresh: WireChange[] = [];
        for (const ch of [...changes].sort((a, b) => a.seq - b.seq)) {
          if (ch.seq <= acked) continue;
          fresh.push(ch);
          acked = ch.seq;
        }
        const applied = await this.mergeAll(w, fresh, bench);
        const outcome: PushOutcome = { acked, applied, duplicate: false };
        const now = Date.now();
        // One statement: the bench's ack, this batch's answer, old answers dropped (a batch replayed later is
        // still harmless: its seqs are acked) and the workspace's last server_seq.
        const seq = w.takeSeq();
        await c.query(
          `WITH b AS (UPDATE sync_benches SET acked = $3, last_seen = $4 WHERE ws = $1 AND bench = $5),
                a AS (INSERT INTO sync_batches (ws, bench, batch, answer, created) VALUES ($1, $5, $6, $7, $4)),
                d AS (DELETE FROM sync_batches WHERE ws = $1 AND bench = $5 AND created < $8)
           ${seq === null ? 'SELECT $2::bigint' : SEQ_UPSERT.replace('($1, $2)', '($1, $2::bigint)')}`,
          [ws, seq, acked, now, bench, batch, JSON.stringify(outcome), now - BATCH_MEMORY_MS],
        );
        await this.finish(c, opts);
        return outcome;
      },
      head,
    );
  }

  private async seriesLevel(c: pg.PoolClient, ws: string, series: string): Promise<number | undefined> {
    return (await c.query<{ next: number }>('SELECT next FROM series WHERE ws = $1 AND name = $2', [ws, series])).rows[0]?.next;
  }

  private async raiseSeries(c: pg.PoolClient, ws: string, series: string, atLeast: number): Promise<void> {
    await c.query(
      'INSERT INTO series (ws, name, next) VALUES ($1, $2, $3) ON CONFLICT (ws, name) DO UPDATE SET next = GREATEST(series.next, excluded.next)',
      [ws, series, atLeast],
    );
  }

  leaseBlock(ws: string, req: LeaseRequest): Promise<LeaseBlock | null> {
    return inWorkspace(this.pool, ws, async (w) => {
      const cur = await this.seriesLevel(w.client, ws, req.series);
      if (cur === undefined && req.start === null) return null;
      const base = Math.max(cur ?? (req.start as number) - 1, req.atLeast);
      const hi = base + req.size;
      if (!Number.isSafeInteger(hi) || hi >= Number.MAX_SAFE_INTEGER) throw seriesExhausted(req.series);
      await this.raiseSeries(w.client, ws, req.series, hi);
      return { series: req.series, lo: base + 1, hi, ...(req.overflow ? { overflow: true } : {}) };
    });
  }

  reserveForBench(ws: string, levels: Record<string, number>, base: Record<string, number> | null): Promise<Record<string, number>> {
    return inWorkspace(this.pool, ws, async (w) => {
      const offsets: Record<string, number> = {};
      for (const [series, level] of Object.entries(levels)) {
        const cur = (await this.seriesLevel(w.client, ws, series)) ?? 0;
        const from = base === null ? null : (base[series] ?? 0);
        if (from !== null && level > from && cur > from) {
          const top = Math.max(level, cur);
          offsets[series] = top - from;
          await this.raiseSeries(w.client, ws, series, top + (level - from));
        } else {
          await this.raiseSeries(w.client, ws, series, level);
        }
      }
      return offsets;
    });
  }

  async createEnrolCode(ws: string, codeHash: string, expires: number): Promise<void> {
    await this.pool.query('INSERT INTO sync_enrol_codes (code_hash, ws, created, expires) VALUES ($1, $2, $3, $4)', [codeHash, ws, Date.now(), expires]);
  }

  async enrolCodeWorkspace(codeHash: string, now: number): Promise<string | null> {
    const r = await this.pool.query<{ ws: string }>('SELECT ws FROM sync_enrol_codes WHERE code_hash = $1 AND used_by IS NULL AND expires >= $2', [codeHash, now]);
    return r.rows[0]?.ws ?? null;
  }

  async redeemEnrolCode(codeHash: string, bench: string, now: number): Promise<string | null> {
    // One statement: of two processes redeeming the same code at once, exactly one gets the workspace.
    const r = await this.pool.query<{ ws: string }>(
      'UPDATE sync_enrol_codes SET used_by = $1 WHERE code_hash = $2 AND used_by IS NULL AND expires >= $3 RETURNING ws',
      [bench, codeHash, now],
    );
    return r.rows[0]?.ws ?? null;
  }

  async saveBench(ws: string, bench: string, tokenHash: string, name: string): Promise<void> {
    const now = Date.now();
    await this.pool.query(
      `INSERT INTO sync_benches (ws, bench, token_hash, name, created, revoked, last_seen) VALUES ($1, $2, $3, $4, $5, false, $5)
       ON CONFLICT (ws, bench) DO UPDATE SET token_hash = excluded.token_hash, name = excluded.name, revoked = false, last_seen = excluded.last_seen`,
      [ws, bench, tokenHash, name, now],
    );
  }

  async benchByToken(tokenHash: string): Promise<BenchRow | null> {
    const r = await this.pool.query<BenchDbRow>('SELECT * FROM sync_benches WHERE token_hash = $1', [tokenHash]);
    return r.rows[0] ? toBench(r.rows[0]) : null;
  }

  async touchBench(ws: string, bench: string, pulled?: number): Promise<void> {
    if (pulled === undefined) await this.pool.query('UPDATE sync_benches SET last_seen = $1 WHERE ws = $2 AND bench = $3', [Date.now(), ws, bench]);
    else await this.pool.query('UPDATE sync_benches SET last_seen = $1, pulled = $2 WHERE ws = $3 AND bench = $4', [Date.now(), pulled, ws, bench]);
  }

  async listBenches(ws: string): Promise<BenchRow[]> {
    const r = await this.pool.query<BenchDbRow>('SELECT * FROM sync_benches WHERE ws = $1 ORDER BY created', [ws]);
    return r.rows.map(toBench);
  }

  async revokeBench(ws: string, bench: string): Promise<boolean> {
    const r = await this.pool.query('UPDATE sync_benches SET revoked = true WHERE ws = $1 AND bench = $2 AND NOT revoked', [ws, bench]);
    return (r.rowCount ?? 0) > 0;
  }

  // ---- central: change-log compaction (pg-compaction.ts) ----

  async logWorkspaces(): Promise<string[]> {
    return (await this.pool.query<{ ws: string }>('SELECT ws FROM change_seq ORDER BY ws')).rows.map((r) => r.ws);
  }

  compactLog(ws: string, policy: CompactionPolicy): Promise<CompactionReport> {
    return pgCompactLog(this.pool, ws, policy);
  }

  compactedThrough(ws: string): Promise<number> {
    return pgCompactedThrough(this.pool, ws);
  }

  logSize(ws: string): Promise<LogSize> {
    return pgLogSize(this.pool, ws);
  }
}

