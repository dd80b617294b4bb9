import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const sqlFiles = (dir: string) => readdirSync(join(here, dir)).filter((f) => f.endsWith('.sql')).sort();

describe('agents database migrations', () => {
  it('every SQLite migration has its PostgreSQL twin of the same name (server/agents/pg-migrations)', () => {
    expect(sqlFiles('pg-migrations')).toEqual(sqlFiles('migrations'));
  });
});
