import type pg from 'pg';

/**
 * Keeps PostgreSQL's planner statistics of the records and the change log current while they grow in
 * bursts (a bench's first push of its whole ledger, an import), between autovacuum's runs. Without
 * statistics the planner takes a workspace's key lookups for a few rows' scan: it hashed every record of
 * the workspace for each 500-change push batch, or probed the stamp index instead of the primary key
 * (perf/pg.bench.ts: pushes fell to about 1,000 changes/s). After every `every` rows a bulk write
 * touches, it reads the tables' counters and analyzes a table never analyzed, or changed by more rows than
 * it held when last analyzed (so a growing table is analyzed each time it doubles); in the background, one
 * at a time.
 */
export class PlannerStats {
  private written = 0;
  private running = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly every = 500,
  ) {}

  /** A bulk write touched `rows` rows. */
  wrote(rows: number): void {
    this.written += rows;
    if (this.written < this.every || this.running) return;
    this.written = 0;
    this.running = true;
    void this.refresh()
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
      });
  }

  /** Analyze what is stale now (also usable directly, e.g. after an import); the tables analyzed. */
  async refresh(): Promise<string[]> {
    // reltuples is -1 until a table is first analyzed; n_mod_since_analyze counts rows written since.
    const r = await this.pool.query<{ relname: string; stale: boolean }>(
      `SELECT c.relname, c.reltuples < 0 OR s.n_mod_since_analyze > GREATEST(c.reltuples, 500) AS stale
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid IN ('records'::regclass, 'changes'::regclass)`,
    );
    const stale = r.rows.filter((t) => t.stale).map((t) => t.relname);
    for (const table of stale) await this.pool.query(`ANALYZE ${table === 'records' ? 'records' : 'changes'}`);
    return stale;
  }
}
