/**
 * Change-log compaction on PostgreSQL (the rule is server/store/compaction.ts). Writers keep going while
 * a workspace's log is compacted: they only append above the horizon, and compaction only rewrites rows
 * at or below it. Of several central processes, one compacts a workspace at a time (session advisory lock).
 */
import type pg from 'pg';
import { compactLog, hlcBefore, horizonOf, type CompactionPolicy, type CompactionReport, type LogSize } from './compaction';
import { toJsonb } from './pg-txn';
import type { Doc } from './types';

const lockKey = (client: pg.PoolClient, ws: string) => `hashtextextended(${client.escapeLiteral(`kitting:compact:${ws}`)}, 0)`;

export async function pgLogSize(db: pg.Pool | pg.PoolClient, ws: string): Promise<LogSize> {
  const r = await db.query<{ n: number; b: number }>(
    'SELECT COUNT(*)::int AS n, COALESCE(SUM(octet_length(fields::text)), 0)::bigint AS b FROM changes WHERE ws = $1',
    [ws],
  );
  return { changes: r.rows[0]?.n ?? 0, bytes: r.rows[0]?.b ?? 0 };
}

export async function pgCompactedThrough(db: pg.Pool | pg.PoolClient, ws: string): Promise<number> {
  const r = await db.query<{ through: number }>('SELECT through FROM change_compaction WHERE ws = $1', [ws]);
  return r.rows[0]?.through ?? 0;
}

async function horizon(c: pg.PoolClient, ws: string, policy: CompactionPolicy): Promise<number> {
  const last = (await c.query<{ seq: number }>('SELECT seq FROM change_seq WHERE ws = $1', [ws])).rows[0]?.seq ?? 0;
  const recent = await c.query<{ seq: number }>('SELECT seq FROM changes WHERE ws = $1 AND hlc >= $2 ORDER BY seq LIMIT 1', [
    ws,
    hlcBefore(policy.now - policy.retentionMs),
  ]);
  const oldest = await c.query<{ c: number | null }>('SELECT MIN(pulled) AS c FROM sync_benches WHERE ws = $1 AND NOT revoked AND last_seen >= $2', [
    ws,
    policy.now - policy.activeMs,
  ]);
  return horizonOf(last, recent.rows[0]?.seq ?? null, oldest.rows[0]?.c ?? null);
}

export async function pgCompactLog(pool: pg.Pool, ws: string, policy: CompactionPolicy): Promise<CompactionReport> {
  const c = await pool.connect();
  let broken: Error | undefined;
  try {
    const locked = (await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${lockKey(c, ws)}) AS ok`)).rows[0]?.ok === true;
    const before = await pgLogSize(c, ws);
    const from = await pgCompactedThrough(c, ws);
    // Another process is compacting this workspace right now: nothing to do here.
    if (!locked) return { ws, through: from, before, after: before };
    try {
      const through = await horizon(c, ws, policy);
      if (through <= from) return { ws, through: from, before, after: before };
      await compactLog(
        {
          page: async (after, upTo, limit) =>
            (
              await c.query<{ seq: number; coll: string; id: string; fields: Doc }>(
                'SELECT seq, coll, id, fields FROM changes WHERE ws = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4',
                [ws, after, upTo, limit],
              )
            ).rows,
          apply: async (rewrite, drop) => {
            await c.query('BEGIN');
            try {
              if (rewrite.length > 0) {
                await c.query(
                  `UPDATE changes SET fields = x.fields FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, fields jsonb)
                    WHERE changes.ws = $1 AND changes.seq = x.seq`,
                  [ws, toJsonb(rewrite)],
                );
              }
              if (drop.length > 0) await c.query('DELETE FROM changes WHERE ws = $1 AND seq = ANY($2::bigint[])', [ws, drop]);
              await c.query('COMMIT');
            } catch (err) {
              await c.query('ROLLBACK');
              throw err;
            }
          },
        },
        from,
        through,
      );
      await c.query(
        `INSERT INTO change_compaction (ws, through, at) VALUES ($1, $2, $3)
         ON CONFLICT (ws) DO UPDATE SET through = GREATEST(change_compaction.through, excluded.through), at = excluded.at`,
        [ws, through, policy.now],
      );
      return { ws, through, before, after: await pgLogSize(c, ws) };
    } finally {
      await c.query(`SELECT pg_advisory_unlock(${lockKey(c, ws)})`);
    }
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    c.release(broken);
  }
}
