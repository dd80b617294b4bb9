import { sql, type RawBuilder } from 'kysely';
import { dialectOf } from '../core/db/database';
import type { AgentsDb } from './schema';

/** A top-level string field of a JSON text column (key: letters, digits, underscores). */
export function jsonField(db: AgentsDb, column: string, key: string): RawBuilder<string | null> {
  if (!/^\w+$/.test(key)) throw new Error(`invalid JSON key ${key}`);
  if (!/^[\w.]+$/.test(column)) throw new Error(`invalid column ${column}`);
  return dialectOf(db) === 'postgres' ? sql<string | null>`(${sql.ref(column)}::jsonb ->> ${sql.lit(key)})` : sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)})`;
}

/** The UTC month (YYYY-MM) of an epoch-milliseconds column. */
export function utcMonthOf(db: AgentsDb, column: string): RawBuilder<string> {
  if (!/^[\w.]+$/.test(column)) throw new Error(`invalid column ${column}`);
  return dialectOf(db) === 'postgres'
    ? sql<string>`to_char(to_timestamp(${sql.ref(column)} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM')`
    : sql<string>`strftime('%Y-%m', ${sql.ref(column)} / 1000, 'unixepoch')`;
}

/** COUNT(*) as a number on both stores. */
export const countAll = () => sql<number>`count(*)`;
