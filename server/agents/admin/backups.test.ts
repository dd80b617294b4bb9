import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { createTestDatabase, testStore } from '../store.testkit';
import { agentsMigrations } from '../db';
import { restoreAgentsExport, writeAgentsExport } from './pg-backup';

let t: AgentsTestServer;
let ops: Awaited<ReturnType<AgentsTestServer['signup']>>;
beforeAll(async () => {
  // no webhook worker: nothing changes rows in the background, so a restored export can be compared with the source
  t = await startAgentsServer({ adminEmails: ['ops@example.com'] }, { webhookWorker: false });
  ops = await t.operator('ops@example.com');
});
afterAll(() => t.close());

/** The PostgreSQL URL of the test server's own schema. */
function sourceUrl(): string {
  const url = t.ctx.config.databaseUrl;
  if (!url) throw new Error('the test server runs on SQLite');
  return url;
}
/** The test server's own pool (PostgreSQL). */
function sourcePool(): pg.Pool {
  const pool = t.ctx.database.pool;
  if (!pool) throw new Error('the test server runs on SQLite');
  return pool;
}
const download = (path: string) => fetch(`${t.base}${path}`, { headers: { authorization: `Bearer ${ops.token}` } });

describe.skipIf(testStore() === 'pg')('backups (SQLite file snapshots)', () => {
  it('POST takes a consistent snapshot of the live database, listed and downloadable by name', async () => {
    const u = await t.signup();
    const created = await ops.post('/api/backups');
    expect(created.status).toBe(200);
    const name = str(created.body.backup.name);
    expect(name).toMatch(/^agents-\d{8}-\d{6}-[0-9a-f]{4}\.db$/);
    expect(created.body.backup.format).toBe('sqlite');
    const later = await t.signup();
    const list = await ops.get('/api/backups');
    expect(arr(list.body.backups).map((b) => b.name)).toContain(name);

    const res = await download(`/api/backups/download/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    const file = join(t.dir, 'downloaded.db');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const copy = new Database(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const emails = (copy.prepare('SELECT email FROM users').all() as { email: string }[]).map((r) => r.email);
      expect(emails).toContain(u.email);
      expect(emails).not.toContain(later.email);
    } finally {
      copy.close();
    }
  });

  it('GET /api/admin/backup downloads a fresh snapshot', async () => {
    const res = await download('/api/admin/backup');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
  });
});

interface Header {
  format: string;
  service: string;
  schemaVersion: number;
  createdAt: string;
  tables: { name: string; columns: string[] }[];
}
const linesOf = (gz: Buffer) => gunzipSync(gz).toString('utf8').split('\n').filter((l) => l !== '');
/** Every row of every exported table of the schema behind `url`, as PostgreSQL's JSON text, sorted. */
async function rowsOf(url: string, tables: string[]): Promise<Record<string, string[]>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const out: Record<string, string[]> = {};
    for (const name of tables) out[name] = (await c.query<{ j: string }>(`SELECT row_to_json(r)::text AS j FROM "${name}" r`)).rows.map((r) => r.j).sort();
    return out;
  } finally {
    await c.end();
  }
}
async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(sql)).rows;
  } finally {
    await c.end();
  }
}
/** The documented restore command, run as an operator would (`npm run agents:restore -- …`). */
function restoreCommand(url: string, file: string): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'server/agents/admin/restore-cli.ts', '--database-url', url, '--file', file], (err, stdout, stderr) =>
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}
const newest = Math.max(...agentsMigrations().map((m) => m.version));
const TABLE_COUNT_SQL = "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()";

describe.runIf(testStore() === 'pg')('backups (PostgreSQL logical exports)', () => {
  it('POST writes a gzip export (0600), listed and downloadable; the restore command loads it into an empty schema with every row equal', async () => {
    const { api, agentId } = await t.withAgent('Backup desk');
    await api.post('/api/chat', { agentId, message: 'my email is backup-lead@example.com' });
    await api.post('/api/support/tickets', { subject: 'バックアップの確認', message: '復元できるか確認します。', priority: 'low', category: 'account' });
    await api.post('/api/affiliate/enroll', { displayName: 'Aiko', agree: true });
    await api.post('/api/affiliate/kyc', { document: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]).toString('base64') });

    const created = await ops.post('/api/backups');
    expect(created.status).toBe(200);
    const name = str(created.body.backup.name);
    expect(name).toMatch(/^agents-\d{8}-\d{6}-[0-9a-f]{4}\.pgexport\.gz$/);
    expect(created.body.backup.format).toBe('pgexport');
    expect(statSync(join(t.dir, 'backups', name)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(t.dir, 'backups')).filter((f) => f.endsWith('.partial'))).toEqual([]);
    expect(arr((await ops.get('/api/backups')).body.backups).map((b) => b.name)).toContain(name);
    const audited = arr((await ops.get('/api/admin/activity')).body.activity).filter((a) => str(a.type) === 'admin').map((a) => [str(a.action), str(a.target.id)]);
    expect(audited).toContainEqual(['backup.create', name]);

    const res = await download(`/api/backups/download/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    const file = join(t.dir, name);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const lines = linesOf(readFileSync(file));
    const header = JSON.parse(lines[0]) as Header;
    expect(header).toMatchObject({ format: 'pgexport', service: 'agents', schemaVersion: newest });
    expect(Date.parse(header.createdAt)).not.toBeNaN();
    const names = header.tables.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['users', 'workspaces', 'agents', 'messages', 'credit_ledger', 'affiliate_kyc', 'admin_audit']));
    expect(names).not.toContain('schema_migrations');
    // foreign-key order: every table comes after the tables it references
    const source = sourceUrl();
    const fks = await query<{ child: string; parent: string }>(
      source,
      "SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid JOIN pg_namespace n ON n.oid = r.relnamespace WHERE c.contype = 'f' AND n.nspname = current_schema() AND c.conrelid <> c.confrelid",
    );
    expect(fks.length).toBeGreaterThan(5);
    for (const fk of fks) expect([fk, names.indexOf(fk.parent) < names.indexOf(fk.child)]).toEqual([fk, true]);
    expect(JSON.parse(lines.at(-1) ?? '')).toEqual(['done', { tables: names.length, rows: lines.length - 2 - 2 * names.length }]);

    const target = await createTestDatabase();
    try {
      const restored = await restoreCommand(target.url, file);
      expect([restored.code, restored.out]).toEqual([0, expect.stringContaining(`(schema version ${newest})`)]);
      // every table's rows equal the source's, but for the audit entries of this very backup (written after its snapshot)
      const [before, after] = [await rowsOf(source, names), await rowsOf(target.url, names)];
      const ofThisBackup = (j: string) => (JSON.parse(j) as { target_id: string }).target_id === name;
      expect(before.admin_audit.filter(ofThisBackup)).toHaveLength(2);
      before.admin_audit = before.admin_audit.filter((j) => !ofThisBackup(j));
      for (const n of names) expect([n, after[n]]).toEqual([n, before[n]]);
      expect(after.affiliate_kyc).toHaveLength(1);
      expect((await query<{ v: string }>(target.url, 'SELECT MAX(version)::text AS v FROM schema_migrations'))[0].v).toBe(String(newest));
      // sequences continue after the largest restored id; triggers are back on
      const seq = await query<{ last: string; max: string }>(target.url, "SELECT (SELECT last_value::text FROM credit_ledger_id_seq) AS last, (SELECT MAX(id)::text FROM credit_ledger) AS max");
      expect(seq[0].last).toBe(seq[0].max);
      await expect(query(target.url, "UPDATE credit_ledger SET delta = delta + 1")).rejects.toThrow('the credit ledger is append-only');

      // a second restore into the now non-empty schema is refused and changes nothing
      const again = await restoreCommand(target.url, file);
      expect(again.code).toBe(1);
      expect(again.out).toContain('is not empty');
      expect((await rowsOf(target.url, ['users'])).users).toEqual(before.users);
    } finally {
      await target.drop();
    }
  });

  it('an export reads one snapshot: rows written while it runs are wholly absent', async () => {
    const before = await t.signup();
    let later: { email: string; ws: string } | null = null;
    const file = join(t.dir, 'during.pgexport.gz');
    await writeAgentsExport(sourcePool(), file, {
      onSnapshot: async () => {
        const api = await t.signup();
        later = { email: api.email, ws: str((await api.get('/api/auth/me')).body.workspace.id) };
      },
    });
    expect(later).not.toBeNull();
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    expect(text).toContain(before.email);
    expect(text).not.toContain(later!.email);
    expect(text).not.toContain(later!.ws); // neither its workspace nor its opening ledger entry
  });

  it('GET /api/admin/backup answers a fresh gzip export', async () => {
    const res = await download('/api/admin/backup');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="agents-\d{8}-\d{6}-[0-9a-f]{4}\.pgexport\.gz"$/);
    expect(JSON.parse(linesOf(Buffer.from(await res.arrayBuffer()))[0])).toMatchObject({ format: 'pgexport', service: 'agents' });
  });

  it('the restore refuses another schema version and a truncated export, leaving the database empty', async () => {
    const file = join(t.dir, 'whole.pgexport.gz');
    await writeAgentsExport(sourcePool(), file, { fetchRows: 2 }); // many cursor round trips per table
    const lines = linesOf(readFileSync(file));
    const older = join(t.dir, 'older.pgexport.gz');
    writeFileSync(older, gzipSync([JSON.stringify({ ...JSON.parse(lines[0]), schemaVersion: newest - 1 }), ...lines.slice(1)].join('\n')));
    const truncated = join(t.dir, 'truncated.pgexport.gz');
    writeFileSync(truncated, gzipSync(lines.slice(0, -3).join('\n')));
    writeFileSync(join(t.dir, 'secret.txt'), 'not gzip');
    const target = await createTestDatabase();
    try {
      await expect(restoreAgentsExport(target.url, older)).rejects.toThrow(`the export has schema version ${newest - 1} and this build's newest migration is ${newest}`);
      await expect(restoreAgentsExport(target.url, truncated)).rejects.toThrow('the export ends early (truncated file)');
      await expect(restoreAgentsExport(target.url, join(t.dir, 'missing.pgexport.gz'))).rejects.toThrow('ENOENT');
      await expect(restoreAgentsExport(target.url, join(t.dir, 'secret.txt'))).rejects.toThrow('incorrect header check');
      expect(await query(target.url, TABLE_COUNT_SQL)).toEqual([{ n: 0 }]);
      const names = (JSON.parse(lines[0]) as Header).tables.map((x) => x.name);
      // small batches: a table spans many INSERTs (and the export many FETCHes); the rows still match
      expect(await restoreAgentsExport(target.url, file, { batchRows: 3 })).toMatchObject({ schemaVersion: newest, tables: names.length, rows: lines.length - 2 - 2 * names.length });
      const [source, restored] = [await rowsOf(sourceUrl(), names), await rowsOf(target.url, names)];
      expect(restored.users.length).toBeGreaterThan(3);
      for (const n of names) expect([n, restored[n]]).toEqual([n, source[n]]);
    } finally {
      await target.drop();
    }
  });
});

describe('backups', () => {
  it('refuses any name that is not a snapshot (path traversal, the live database, other files)', async () => {
    writeFileSync(join(t.dir, 'secret.txt'), 'not for download');
    const names = [
      '..%2Fagents.db', '..%2F..%2Fetc%2Fpasswd', '%2E%2E%2Fjwt.secret', 'agents.db', '.agents-20260101-000000-abcd.db.partial', 'agents-20260101-000000-abcd.db%00.txt',
      '..%2Fagents-20260101-000000-abcd.pgexport.gz', '.agents-20260101-000000-abcd.pgexport.gz.partial', 'agents-20260101-000000-abcd.pgexport', 'agents-20260101-000000-abcd.gz',
    ];
    for (const name of names) {
      const r = await ops.get(`/api/backups/download/${name}`);
      expect([name, r.status, r.body]).toEqual([name, 400, { error: 'invalid backup name' }]);
    }
    const traversal = await ops.get('/api/backups/download/../../secret.txt');
    expect(traversal.status).toBe(404);
    expect(traversal.text).not.toContain('not for download');
    expect((await ops.get('/api/backups/download/agents-20200101-000000-abcd.db')).body).toEqual({ error: 'backup not found' });
    expect((await ops.get('/api/backups/download/agents-20200101-000000-abcd.pgexport.gz')).body).toEqual({ error: 'backup not found' });
  });

  it('keeps the 30 newest snapshots: taking one more removes the oldest', async () => {
    const dir = join(t.dir, 'backups');
    mkdirSync(dir, { recursive: true });
    const old = Array.from({ length: 30 }, (_, i) => `agents-2020010${Math.floor(i / 10)}-0000${String(i % 10).padStart(2, '0')}-abcd.db`);
    for (const n of old) {
      writeFileSync(join(dir, n), 'old', { mode: 0o600 });
      utimesSync(join(dir, n), new Date('2020-01-01'), new Date('2020-01-01'));
    }
    const name = str((await ops.post('/api/backups')).body.backup.name);
    const kept = arr((await ops.get('/api/backups')).body.backups).map((b) => str(b.name));
    expect(kept).toHaveLength(30);
    expect(kept).toContain(name);
    expect(kept).not.toContain(old[0]);
    expect(readdirSync(dir).filter((n) => n.startsWith('agents-'))).toHaveLength(30);
  });
});
